import { err, ok, type Result } from "neverthrow";
import { withHeader } from "../api/with-header.js";
import { sha256Hex } from "../crypto/sha256.js";
import type { KopekError, KopekErrorOf } from "../domain/errors.js";
import type { ExistingIdempotencyRecord, StoredResponse } from "../ports/idempotency-storage.js";

/** How long a key is remembered (API.md 3). */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/** How long an executing request holds its key before another may take over. At most 60 s (API.md 3). */
export const DEFAULT_LEASE_MS = 30_000;
export const MAX_LEASE_MS = 60_000;

import { MAX_IDEMPOTENCY_KEY_LENGTH, PRINTABLE_ASCII } from "../domain/limits.js";
import { luhnValid, withoutUuids } from "../validation/card-guard.js";

/** Where an Idempotency-Key holding a card number is reported, as query parameters are (`#/limit`). */
export const IDEMPOTENCY_KEY_POINTER = "#/Idempotency-Key";

/**
 * A key is the client's own identifier: a Unix time and a counter joined by a dash
 * (`quickstart-1764259200-2345617`) is common, and the body's card guard, which joins any digit
 * groups, took one in twenty such keys for a card number. In a key only digits written as a card is
 * written count: one run of 13–19 digits, or groups of four joined by one repeated separator. A UUID,
 * the commonest key, is never a card, though its digit segments can be written as one
 * (`abcd0005-5678-4012-8a56-…`: CI, once in about 3,000 random keys).
 */
const CARD_AS_WRITTEN =
  /(?<![0-9])(?:[0-9]{13,19}|[0-9]{4}(?<sep>[ -]+|\)\()[0-9]{4}(?:\k<sep>[0-9]{4}){1,2}\k<sep>[0-9]{1,4})(?![0-9])/g;

function holdsCardAsWritten(key: string): boolean {
  for (const [written] of withoutUuids(key).matchAll(CARD_AS_WRITTEN)) {
    const digits = written.replace(/[^0-9]/g, "");
    if (digits.length >= 13 && digits.length <= 19 && luhnValid(digits)) return true;
  }
  return false;
}

/**
 * Checks the Idempotency-Key header: present, 1–255 characters, printable ASCII only, and no card
 * number (API.md 4): the key is stored, so it is held to the card-data rule of every stored string.
 */
export function validateIdempotencyKeyHeader(
  value: string | undefined,
): Result<string, KopekErrorOf<"idempotency_key_missing" | "idempotency_key_invalid" | "validation_failed">> {
  if (value === undefined) return err({ code: "idempotency_key_missing" });
  if (value.length > 0 && value.length <= MAX_IDEMPOTENCY_KEY_LENGTH && PRINTABLE_ASCII.test(value)) {
    if (!holdsCardAsWritten(value)) return ok(value);
    const detail = "must not contain a card number; it is stored with the request";
    return err({
      code: "validation_failed",
      errors: [{ pointer: IDEMPOTENCY_KEY_POINTER, code: "card_number_not_allowed", detail }],
    });
  }
  const detail =
    value.length === 0
      ? "the Idempotency-Key header must not be empty"
      : value.length > MAX_IDEMPOTENCY_KEY_LENGTH
        ? `the Idempotency-Key header must be at most ${MAX_IDEMPOTENCY_KEY_LENGTH} characters`
        : "the Idempotency-Key header must contain printable ASCII characters only";
  return err({ code: "idempotency_key_invalid", detail });
}

/** SHA-256 over the method, the route path and the canonical JSON of the body. */
export function fingerprintRequest(method: string, path: string, canonicalBody: string): string {
  return sha256Hex(requestHead(method, path) + canonicalBody);
}

/** What precedes the body in a request's digests (`fingerprintRequest`, `sentDigest`). */
export function requestHead(method: string, path: string): string {
  return `${method.toUpperCase()}\n${path}\n`;
}

/** What a key's existing record answers a request with the given fingerprint (API.md 3). */
export type RecordAnswer =
  | { readonly action: "replay"; readonly response: StoredResponse }
  | { readonly action: "refuse"; readonly error: KopekError };

/** A different body is refused before an in-flight one is reported; a completed record is replayed. */
export function answerFromRecord(record: ExistingIdempotencyRecord, fingerprint: string): RecordAnswer {
  if (record.fingerprint !== fingerprint)
    return { action: "refuse", error: { code: "idempotency_key_reused" } };
  if (record.state === "in_progress")
    return { action: "refuse", error: { code: "idempotency_request_in_progress" } };
  return { action: "replay", response: record.response };
}

/** An execution of this same request whose process stopped holding the key: the next claim takes it over. */
export function isAbandoned(record: ExistingIdempotencyRecord, fingerprint: string, now: Date): boolean {
  return (
    record.state === "in_progress" &&
    record.fingerprint === fingerprint &&
    record.leaseExpiresAt.getTime() <= now.getTime()
  );
}

/** Refusals that reached the operation and are remembered for replay (API.md 3); the rest release the key. */
export const STORED_OUTCOME_CODES = [
  "method_unavailable",
  "refund_exceeds_payment",
  "payment_declined",
  "invoice_not_usable",
  "invalid_state",
  "not_found",
] as const satisfies readonly KopekError["code"][];

const STORED_OUTCOMES: ReadonlySet<string> = new Set(STORED_OUTCOME_CODES);

/** Whether a refusal is stored with the key and replayed (`STORED_OUTCOME_CODES`). */
export function isStoredOutcome(error: KopekError): boolean {
  return STORED_OUTCOMES.has(error.code);
}

/** The replay of a stored response: the same bytes, 201 shown as 200, marked as replayed. */
export function replay(stored: StoredResponse): StoredResponse {
  return {
    status: stored.status === 201 ? 200 : stored.status,
    headers: withHeader(stored.headers, "idempotent-replayed", "true"),
    body: stored.body,
  };
}
