import { err, ok, type Result } from "neverthrow";
import type { KopekError, KopekErrorOf } from "./errors.js";
import type { ClaimOutcome, StoredResponse } from "./ports/idempotency-storage.js";
import { sha256Hex } from "./sha256.js";

/** How long a key is remembered (API.md 3). */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/** How long an executing request holds its key before another may take over. At most 60 s (API.md 3). */
export const DEFAULT_LEASE_MS = 30_000;
export const MAX_LEASE_MS = 60_000;

const PRINTABLE_ASCII = /^[\x20-\x7E]{1,255}$/;

/** Checks the Idempotency-Key header: present, 1–255 characters, printable ASCII only. */
export function validateIdempotencyKeyHeader(
  value: string | undefined,
): Result<string, KopekErrorOf<"idempotency_key_missing" | "idempotency_key_invalid">> {
  if (value === undefined) return err({ code: "idempotency_key_missing" });
  if (PRINTABLE_ASCII.test(value)) return ok(value);
  const detail =
    value.length === 0
      ? "the Idempotency-Key header must not be empty"
      : value.length > 255
        ? "the Idempotency-Key header must be at most 255 characters"
        : "the Idempotency-Key header must contain printable ASCII characters only";
  return err({ code: "idempotency_key_invalid", detail });
}

/** SHA-256 over the method, the route path and the canonical JSON of the body. */
export function fingerprintRequest(method: string, path: string, canonicalBody: string): string {
  return sha256Hex(`${method.toUpperCase()}\n${path}\n${canonicalBody}`);
}

/** What to do with a request after claiming its key. */
export type ClaimDecision =
  | { readonly action: "execute"; readonly recordId: string }
  | { readonly action: "replay"; readonly response: StoredResponse }
  | { readonly action: "refuse"; readonly error: KopekError };

/** Applies API.md 3 to a claim: a different body is refused before an in-flight one is reported. */
export function decideClaim(outcome: ClaimOutcome, fingerprint: string): ClaimDecision {
  if (outcome.kind === "claimed") return { action: "execute", recordId: outcome.recordId };
  if (outcome.kind === "key_revoked") return { action: "refuse", error: { code: "unauthorized" } };
  const { record } = outcome;
  if (record.fingerprint !== fingerprint)
    return { action: "refuse", error: { code: "idempotency_key_reused" } };
  if (record.state === "in_progress")
    return { action: "refuse", error: { code: "idempotency_request_in_progress" } };
  return { action: "replay", response: record.response };
}

/** Outcomes that reached the operation and are remembered for replay (API.md 3); the rest release the key. */
export function isStoredOutcome(error: KopekError): boolean {
  switch (error.code) {
    case "method_unavailable":
    case "payment_declined":
    case "invalid_state":
    case "not_found":
      return true;
    default:
      return false;
  }
}

/** The replay of a stored response: the same bytes, 201 shown as 200, marked as replayed. */
export function replayHeaders(stored: StoredResponse): Record<string, string> {
  return { ...stored.headers, "idempotent-replayed": "true" };
}

export function replayStatus(stored: StoredResponse): number {
  return stored.status === 201 ? 200 : stored.status;
}
