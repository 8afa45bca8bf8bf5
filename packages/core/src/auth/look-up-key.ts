import { err, ok, type Result } from "neverthrow";
import type { KopekError } from "../domain/errors.js";
import type { Project } from "../domain/project.js";
import type { Storage } from "../ports/storage.js";
import { fromStorageError } from "../use-cases/execution.js";

/** Who is calling: the project the key belongs to. */
export interface AuthContext {
  readonly project: Project;
  readonly keyId: string;
}

/**
 * The project and key behind a key's SHA-256, if the key exists and is not revoked (API.md 2). Only
 * the hash ever reaches storage; `KeyCache` parses the header, checks the key's checksum and
 * remembers the answer.
 */
export async function lookUpKey(storage: Storage, sha256: string): Promise<Result<AuthContext, KopekError>> {
  const owner = await storage.findProjectByKeyHash(sha256);
  if (owner.isErr()) return err(fromStorageError(owner.error));
  if (owner.value === null) return err({ code: "unauthorized" });
  return ok({ project: owner.value.project, keyId: owner.value.keyId });
}
