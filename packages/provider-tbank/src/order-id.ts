import { createHash } from "node:crypto";

/** The longest `OrderId` T-Bank takes (developer.tbank.ru/eacq/api/init): 36 characters. */
export const ORDER_ID_MAX_LENGTH = 36;

// An order that saves the payer's card: its OrderId is also its CustomerKey (README, "Saving a card").
const SAVING_PREFIX = "s1-";
// An order paid from an SBP account bound for it: `b1-` and its binding's RequestKey (sbp-saving.ts).
const BINDING_PREFIX = "b1-";
// A customer a card is bound to without a payment (AddCustomer + AddCard, card-binding.ts): never an order.
const CARD_CUSTOMER_PREFIX = "c1-";

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
 * A key that begins like a saving or binding order's id, or a bound card's customer, is hashed too, so
 * they never meet (an SBP charge's `OrderId` is also its `CustomerKey`, stored-charge.ts).
 */
export function orderIdOf(key: string): string {
  if (
    key.length > 0 &&
    key.length <= ORDER_ID_MAX_LENGTH &&
    /^[\x21-\x7e]+$/.test(key) &&
    ![SAVING_PREFIX, BINDING_PREFIX, CARD_CUSTOMER_PREFIX].some((prefix) => key.startsWith(prefix))
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

/**
 * The `CustomerKey` a card is bound to without a payment (`AddCustomer`, `AddCard`): `c1-` and 33 hex digits
 * of the save's idempotency key's SHA-256 (≤ 36 characters), so a retried start names the same customer.
 * Its own prefix: no `OrderId` (`orderIdOf`, `savingOrderIdOf`, `bindingOrderIdOf`) — and so no other
 * `CustomerKey` the adapter sends — is ever one.
 */
export function cardCustomerKeyOf(key: string): string {
  return `${CARD_CUSTOMER_PREFIX}${digestOf(key)}`;
}

/** The `CustomerKey` of an order made by `savingOrderIdOf`, or null for any other order. */
export function customerKeyOfOrder(orderId: string | undefined): string | null {
  return orderId !== undefined && /^s1-[0-9a-f]{33}$/.test(orderId) ? orderId : null;
}

const UUID = /^([0-9a-f]{8})-?([0-9a-f]{4})-?([0-9a-f]{4})-?([0-9a-f]{4})-?([0-9a-f]{12})$/;
// [T] types RequestKey a number (GetAddAccountQrState's example 211258) and shows it as a UUID too
// (AddAccountQrResponse's example, NotificationQr's format): both are taken. A number of 32 digits would
// read as a UUID without dashes, so numbers stop at 31 digits (T-Bank's ids are far shorter).
const NUMERIC = /^[0-9]{1,31}$/;

/**
 * The `OrderId` of the payment an SBP account binding pays: `b1-` and the binding's `RequestKey` — a UUID
 * without its dashes (35 characters) or the number's digits — so the `RequestKey` is read back from it
 * (`requestKeyOfOrder`). Null for a `RequestKey` that is neither.
 */
export function bindingOrderIdOf(requestKey: string): string | null {
  if (NUMERIC.test(requestKey)) return `${BINDING_PREFIX}${requestKey}`;
  const match = UUID.exec(requestKey.toLowerCase());
  return match === null ? null : `${BINDING_PREFIX}${match.slice(1).join("")}`;
}

/** The `RequestKey` (a UUID dashed and lowercase, or a number's digits) of an order made by `bindingOrderIdOf`, or null. */
export function requestKeyOfOrder(orderId: string | undefined): string | null {
  if (orderId === undefined || !orderId.startsWith(BINDING_PREFIX)) return null;
  const rest = orderId.slice(BINDING_PREFIX.length);
  if (NUMERIC.test(rest)) return rest;
  const match = UUID.exec(rest);
  return match === null || orderId.length !== 35 ? null : match.slice(1).join("-");
}

/** A `RequestKey` as [T] types it in a request: a number when it is one, else the string T-Bank gave. */
export function requestKeyField(requestKey: string): string | number {
  return NUMERIC.test(requestKey) && Number.isSafeInteger(Number(requestKey))
    ? Number(requestKey)
    : requestKey;
}
