import { type ApiKeyMatch, type ApiKeyRecord, type KeyOwner, keyIsLive, type Project } from "@kopek/core";
import { deepCopy } from "./deep-copy.js";

const byCreatedAt = (a: { createdAt: Date }, b: { createdAt: Date }) =>
  a.createdAt.getTime() - b.createdAt.getTime();

/** Projects and their API keys. Keys are indexed by hash, so authenticating a request is one Map lookup. */
export class ProjectStore {
  readonly #projects = new Map<string, Project>();
  readonly #keysByHash = new Map<string, ApiKeyRecord>();
  readonly #keyHashesByProject = new Map<string, string[]>();
  readonly #hashesById = new Map<string, string>();

  saveProject(project: Project): void {
    const existing = this.#projects.get(project.id);
    const createdAt = existing?.createdAt ?? project.createdAt;
    // Only `markDeleted` marks a project deleted, and nothing unmarks it.
    const { deletedAt: _ignored, ...fields } = project;
    const deletedAt = existing?.deletedAt === undefined ? {} : { deletedAt: existing.deletedAt };
    this.#projects.set(project.id, deepCopy({ ...fields, createdAt, ...deletedAt }));
  }

  /** Marks the project deleted from `at`, unless it was already; its `deletedAt`, or null without it. */
  markDeleted(projectId: string, at: Date): Date | null {
    const project = this.#projects.get(projectId);
    if (project === undefined) return null;
    if (project.deletedAt === undefined)
      this.#projects.set(projectId, { ...project, deletedAt: new Date(at) });
    return new Date((project.deletedAt ?? at).getTime());
  }

  /** Forgets the project and its keys (its deletion); how many keys went. */
  deleteProject(projectId: string): number {
    const hashes = this.#keyHashesByProject.get(projectId) ?? [];
    for (const hash of hashes) {
      const key = this.#keysByHash.get(hash);
      if (key !== undefined) this.#hashesById.delete(key.id);
      this.#keysByHash.delete(hash);
    }
    this.#keyHashesByProject.delete(projectId);
    this.#projects.delete(projectId);
    return hashes.length;
  }

  findProject(projectId: string): Project | null {
    const project = this.#projects.get(projectId);
    return project === undefined ? null : deepCopy(project);
  }

  listProjects(): Project[] {
    return [...this.#projects.values()].map(deepCopy).sort(byCreatedAt);
  }

  projectExists(projectId: string): boolean {
    return this.#projects.has(projectId);
  }

  addApiKey(key: ApiKeyRecord): boolean {
    if (this.#projects.get(key.projectId)?.deletedAt !== undefined) return false;
    if (this.#keysByHash.has(key.sha256)) return true;
    this.#keysByHash.set(key.sha256, deepCopy(key));
    this.#hashesById.set(key.id, key.sha256);
    const hashes = this.#keyHashesByProject.get(key.projectId);
    if (hashes === undefined) this.#keyHashesByProject.set(key.projectId, [key.sha256]);
    else hashes.push(key.sha256);
    return true;
  }

  revokeApiKey(sha256: string, revokedAt: Date): boolean {
    const key = this.#keysByHash.get(sha256);
    if (key === undefined) return false;
    // An earlier revocation replaces a later one (revoke now during a grace period), never the reverse.
    if (key.revokedAt === null || key.revokedAt.getTime() > revokedAt.getTime())
      this.#keysByHash.set(sha256, { ...key, revokedAt: new Date(revokedAt.getTime()) });
    return true;
  }

  listApiKeys(projectId: string): ApiKeyRecord[] {
    const hashes = this.#keyHashesByProject.get(projectId) ?? [];
    return hashes
      .flatMap((hash) => this.#keysByHash.get(hash) ?? [])
      .map(deepCopy)
      .sort(byCreatedAt);
  }

  findApiKeys(match: ApiKeyMatch): ApiKeyRecord[] {
    const matches =
      "id" in match
        ? (k: ApiKeyRecord) => k.id === match.id
        : (k: ApiKeyRecord) => k.sha256.startsWith(match.sha256Prefix);
    return [...this.#keysByHash.values()].filter(matches).map(deepCopy).sort(byCreatedAt);
  }

  /** Whether the key with this id exists, belongs to the project and is not revoked. */
  keyHolds(keyId: string, projectId: string): boolean {
    const sha256 = this.#hashesById.get(keyId);
    const key = sha256 === undefined ? undefined : this.#keysByHash.get(sha256);
    return key !== undefined && key.projectId === projectId && keyIsLive(key, new Date());
  }

  findProjectByKeyHash(sha256: string): KeyOwner | null {
    const key = this.#keysByHash.get(sha256);
    if (key === undefined || !keyIsLive(key, new Date())) return null;
    const project = this.findProject(key.projectId);
    return project === null ? null : { project, keyId: key.id };
  }

  /** The stored rows, for `inspect()`. */
  tables() {
    return { projects: this.listProjects(), api_keys: [...this.#keysByHash.values()].map(deepCopy) };
  }
}
