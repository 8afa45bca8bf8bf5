import type { ResultAsync } from "neverthrow";
import type { Project } from "../domain/project.js";
import type { StorageError } from "./storage-error.js";

/** Projects and their API keys (keys only as SHA-256). */
export interface ProjectStorage {
  /** Creates the project, or updates its name and provider settings when the id exists. */
  saveProject(project: Project): ResultAsync<void, StorageError>;
  /** The project with this id, or null. */
  findProject(projectId: string): ResultAsync<Project | null, StorageError>;
  /** Every project, oldest first. */
  listProjects(): ResultAsync<readonly Project[], StorageError>;
  /** Whether a project with this id exists; reads none of its settings (so no provider secret). */
  projectExists(projectId: string): ResultAsync<boolean, StorageError>;
  /**
   * Records an API key by the SHA-256 of the whole key; an existing hash is left as it is. False, and
   * nothing recorded, when the project is marked deleted (`markProjectDeleted`): it takes no new key.
   */
  addApiKey(key: ApiKeyRecord): ResultAsync<boolean, StorageError>;
  /**
   * Marks the key revoked from `revokedAt` on: now, or a moment ahead (a key rotated with a grace
   * period keeps working until then, on every process). An earlier time replaces a later one, never
   * the other way; false when no such key exists.
   */
  revokeApiKey(sha256: string, revokedAt: Date): ResultAsync<boolean, StorageError>;
  /** The API keys of a project (hashes only), oldest first. */
  listApiKeys(projectId: string): ResultAsync<readonly ApiKeyRecord[], StorageError>;
  /**
   * The keys of any project, revoked ones included, that a match names, oldest first: the operator's
   * lookup (`kopek keys revoke`), which reads no project and so no provider secret.
   */
  findApiKeys(match: ApiKeyMatch): ResultAsync<readonly ApiKeyRecord[], StorageError>;
  /** The project that owns a live key with this hash (not revoked, or revoked only ahead of now), or null. */
  findProjectByKeyHash(sha256: string): ResultAsync<KeyOwner | null, StorageError>;
}

export interface ApiKeyRecord {
  readonly id: string;
  readonly projectId: string;
  /** SHA-256 hex of the whole key. The key itself is never stored. */
  readonly sha256: string;
  readonly createdAt: Date;
  /** From when the key is refused: null while it is not revoked; a time ahead while its grace runs. */
  readonly revokedAt: Date | null;
}

/** Whether a key works at `now`: not revoked, or revoked only from a moment still ahead. */
export function keyIsLive(key: { readonly revokedAt: Date | null }, now: Date): boolean {
  return key.revokedAt === null || key.revokedAt.getTime() > now.getTime();
}

/** A key by its id, or every key whose SHA-256 (lowercase hex) starts with a prefix, the whole hash included. */
export type ApiKeyMatch = { readonly id: string } | { readonly sha256Prefix: string };

export interface KeyOwner {
  readonly project: Project;
  readonly keyId: string;
}
