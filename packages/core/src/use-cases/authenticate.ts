import { err, ok, type Result } from "neverthrow";
import { hashApiKey, isWellFormedApiKey, parseBearerToken } from "../api-key.js";
import type { Project } from "../domain.js";
import type { KopekError } from "../errors.js";
import type { Storage } from "../ports/storage.js";
import { fromStorageError } from "./execution.js";

/** Who is calling: the project the key belongs to. */
export interface AuthContext {
  readonly project: Project;
  readonly keyId: string;
}

/**
 * Authenticates an Authorization header (API.md 2). A malformed key or a bad checksum is refused
 * without a storage lookup; only the SHA-256 of the key ever reaches storage.
 */
export async function authenticate(
  storage: Storage,
  authorization: string | undefined,
): Promise<Result<AuthContext, KopekError>> {
  const token = parseBearerToken(authorization);
  if (token === null || !isWellFormedApiKey(token)) return err({ code: "unauthorized" });
  return lookUpKey(storage, hashApiKey(token));
}

/** The project and key behind a key's SHA-256, if the key exists and is not revoked. */
export async function lookUpKey(storage: Storage, sha256: string): Promise<Result<AuthContext, KopekError>> {
  const owner = await storage.findProjectByKeyHash(sha256);
  if (owner.isErr()) return err(fromStorageError(owner.error));
  if (owner.value === null) return err({ code: "unauthorized" });
  return ok({ project: owner.value.project, keyId: owner.value.keyId });
}
