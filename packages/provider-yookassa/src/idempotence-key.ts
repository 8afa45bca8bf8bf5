import { createHash } from "node:crypto";

/**
 * YooKassa's longest `Idempotence-Key` (yookassa.ru/developers/using-api/interaction-format, section on
 * idempotence): 64 characters. Kopek's keys are derived strings that may be longer.
 */
export const IDEMPOTENCE_KEY_MAX_LENGTH = 64;

/**
 * The `Idempotence-Key` for one of Kopek's idempotency keys: the key itself when it fits YooKassa's limit
 * and uses only printable ASCII; otherwise `k1-` and the first 61 hex digits of its SHA-256, stable
 * across retries and processes, so a retried request carries the same key and is never a second payment.
 */
export function idempotenceKeyOf(key: string): string {
  if (key.length > 0 && key.length <= IDEMPOTENCE_KEY_MAX_LENGTH && /^[\x21-\x7e]+$/.test(key)) return key;
  const digest = createHash("sha256").update(key, "utf8").digest("hex");
  return `k1-${digest.slice(0, IDEMPOTENCE_KEY_MAX_LENGTH - 3)}`;
}
