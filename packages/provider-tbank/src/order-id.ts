import { createHash } from "node:crypto";

/** The longest `OrderId` T-Bank takes (developer.tbank.ru/eacq/api/init): 36 characters. */
export const ORDER_ID_MAX_LENGTH = 36;

// An order that saves the payer's card: its OrderId is also its CustomerKey (README, "Saving a card").
const SAVING_PREFIX = "s1-";

const digestOf = (key: string) =>
  createHash("sha256")
    .update(key, "utf8")
    .digest("hex")
    .slice(0, ORDER_ID_MAX_LENGTH - 3);

/**
 * The `OrderId` for one of Kopek's idempotency keys. T-Bank has no idempotency header; an order is
 * found again by its `OrderId` (`CheckOrder`), so the id is derived from the key: the key itself when
 * it fits and is printable ASCII, else `k1-` and the first 33 hex digits of its SHA-256 — stable across
 * retries and processes, so a retried request names the same order and never makes a second one.
 * A key that begins like a saving order's id is hashed too, so the two never meet.
 */
export function orderIdOf(key: string): string {
  if (
    key.length > 0 &&
    key.length <= ORDER_ID_MAX_LENGTH &&
    /^[\x21-\x7e]+$/.test(key) &&
    !key.startsWith(SAVING_PREFIX)
  )
    return key;
  return `k1-${digestOf(key)}`;
}

/**
 * The `OrderId` of a payment that saves the payer's card: `s1-` and 33 hex digits of the key's SHA-256,
 * stable across retries like `orderIdOf`. It doubles as the order's `CustomerKey` (≤ 36 characters),
 * so the card saved with it is found again from the payment alone (`GetState` answers the `OrderId`).
 */
export function savingOrderIdOf(key: string): string {
  return `${SAVING_PREFIX}${digestOf(key)}`;
}

/** The `CustomerKey` of an order made by `savingOrderIdOf`, or null for any other order. */
export function customerKeyOfOrder(orderId: string | undefined): string | null {
  return orderId !== undefined && /^s1-[0-9a-f]{33}$/.test(orderId) ? orderId : null;
}
