import { createHash } from "node:crypto";
import type { AuthContext } from "../auth/look-up-key.js";
import { sha256Hex } from "../crypto/sha256.js";
import type { LookupOutcome, StoredResponse } from "../ports/idempotency-storage.js";
import type { Executor } from "./execute-once.js";
import { replay, requestHead } from "./idempotency-rules.js";

/**
 * SHA-256 over a write's method, path and body exactly as core received them, or null for a body
 * whose text has a lone surrogate. The fingerprint (`fingerprintRequest`) is a function of these: the
 * canonical body is computed from the body as received, so two requests with one digest have one
 * fingerprint, and storage that looks keys up locally keeps the digest to answer a retry of the same
 * bytes without parsing and canonicalising its body. Text is hashed as UTF-8, where a lone surrogate
 * becomes the bytes of U+FFFD; JSON text with U+FFFD itself canonicalises differently, so such a body
 * gets no digest (and is refused, `readJsonBody`). Bytes core cannot decode are never stored.
 */
export function sentDigest(
  method: string,
  path: string,
  body: string | Uint8Array | undefined,
): string | null {
  const head = requestHead(method, path);
  if (body === undefined) return sha256Hex(head);
  if (typeof body !== "string") return createHash("sha256").update(head).update(body).digest("hex");
  return body.isWellFormed() ? sha256Hex(head + body) : null;
}

/**
 * Looks a write's key up before its body is read, for storage that looks keys up locally: a completed
 * record of the same bytes (`sentDigest`, digest of this request) is answered with its stored response,
 * the body neither parsed nor validated; otherwise what the key holds goes on to `executeOnce` as
 * `WriteRequest.held` (null after a storage error: it is looked up again there).
 */
export async function lookUpSentBytes(
  executor: Executor,
  auth: AuthContext,
  key: string,
  digest: string,
): Promise<{ readonly replay: StoredResponse } | { readonly held: LookupOutcome | null }> {
  const projectId = auth.project.id;
  const lookup = { projectId, key, now: executor.clock.now(), apiKeyId: auth.keyId };
  const found = await executor.storage.findIdempotencyRecord(lookup);
  if (found.isErr()) return { held: null };
  const held = found.value;
  if (held.kind === "existing" && held.record.state === "completed" && held.record.sentDigest === digest)
    return { replay: replay(held.record.response) };
  return { held };
}
