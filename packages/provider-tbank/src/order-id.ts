import { createHash } from "node:crypto";

/** The longest `OrderId` T-Bank takes (developer.tbank.ru/eacq/api/init): 36 characters. */
export const ORDER_ID_MAX_LENGTH = 36;

/**
 * The `OrderId` for one of Kopek's idempotency keys. T-Bank has no idempotency header; an order is
 * found again by its `OrderId` (`CheckOrder`), so the id is derived from the key: the key itself when
 * it fits and is printable ASCII, else `k1-` and the first 33 hex digits of its SHA-256 — stable across
 * retries and processes, so a retried request names the same order and never makes a second one.
 */
export function orderIdOf(key: string): string {
  if (key.length > 0 && key.length <= ORDER_ID_MAX_LENGTH && /^[\x21-\x7e]+$/.test(key)) return key;
  const digest = createHash("sha256").update(key, "utf8").digest("hex");
  return `k1-${digest.slice(0, ORDER_ID_MAX_LENGTH - 3)}`;
}
