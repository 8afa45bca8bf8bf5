/**
 * A saved card as Kopek keeps it: `<CustomerKey>:<RebillId>`. `Charge` needs only the `RebillId`
 * (developer.tbank.ru/eacq/api/charge), but only `GetCardList` of the customer tells the card's digits,
 * and it is asked by `CustomerKey` — so the ref carries both. A bare `RebillId` can be charged, not described.
 */
export interface StoredCardRef {
  readonly customerKey: string | null;
  readonly rebillId: string;
}

/**
 * A ref may also be given as `b64:` and the base64url of its plain form. T-Bank's `RebillId` is a number
 * of up to 20 digits (13 in the wild: a millisecond timestamp), and API.md 4 refuses any `providerMethodRef`
 * holding 13–19 digits that pass Luhn — one `RebillId` in ten. Base64url of printable ASCII has a letter
 * at least every fourth character, so the encoded form never reads as a card number (README, "Refs").
 * Anything else that starts with `b64:` is no ref at all.
 */
export const ENCODED_REF_PREFIX = "b64:";

function plainRef(ref: string): string | null {
  if (!ref.startsWith(ENCODED_REF_PREFIX)) return ref;
  const encoded = ref.slice(ENCODED_REF_PREFIX.length);
  const bytes = Buffer.from(encoded, "base64url");
  // Node skips what is not base64url; only an exact round trip is the form.
  if (bytes.toString("base64url") !== encoded) return null;
  const text = bytes.toString("utf8");
  return /^[\x20-\x7e]+$/.test(text) && !text.startsWith(ENCODED_REF_PREFIX) ? text : null;
}

/** `ref` in its `b64:` form (see {@link ENCODED_REF_PREFIX}). */
export function encodedRefOf(ref: string): string {
  return ENCODED_REF_PREFIX + Buffer.from(ref, "utf8").toString("base64url");
}

export function parseStoredRef(given: string): StoredCardRef | null {
  const ref = plainRef(given);
  if (ref === null) return null;
  if (/^[0-9]{1,20}$/.test(ref)) return { customerKey: null, rebillId: ref };
  const match = /^(.{1,36}):([0-9]{1,20})$/.exec(ref);
  return match === null ? null : { customerKey: match[1] ?? "", rebillId: match[2] ?? "" };
}

export function storedRefOf(customerKey: string, rebillId: string): string {
  return `${customerKey}:${rebillId}`;
}

/**
 * An SBP account bound to the shop as Kopek keeps it: `q1:<RequestKey>:<AccountToken>`. `ChargeQr` needs
 * only the `AccountToken` (developer.tbank.ru/eacq/api/charge-qr); the binding's `RequestKey` is how
 * `GetAddAccountQrState` (…/get-add-account-qr-state) tells its state and the payer's bank.
 */
export interface BoundAccountRef {
  readonly requestKey: string;
  readonly accountToken: string;
}

export function parseBoundAccountRef(given: string): BoundAccountRef | null {
  const ref = plainRef(given);
  if (ref === null) return null;
  const match = /^q1:([0-9A-Za-z-]{1,64}):([\x21-\x7e]{1,128})$/.exec(ref);
  return match === null ? null : { requestKey: match[1] ?? "", accountToken: match[2] ?? "" };
}

export function boundAccountRefOf(requestKey: string, accountToken: string): string {
  return `q1:${requestKey}:${accountToken}`;
}

/**
 * A card binding made without a payment (`AddCustomer` + `AddCard`, card-binding.ts), as Kopek keeps the
 * save: `a1:<CustomerKey>:<RequestKey>`. `GetAddCardState` asks by the `RequestKey`; `GetCardList` (the
 * card's digits) and the saved card's ref `<CustomerKey>:<RebillId>` need the `CustomerKey`. A save's ref,
 * never a stored method's: `parseStoredRef` reads none the adapter makes (`a1:` and a `c1-` key are 39
 * characters before the last colon, beyond a `CustomerKey`'s 36).
 */
export interface CardBindingRef {
  readonly customerKey: string;
  readonly requestKey: string;
}

export function cardBindingRefOf(customerKey: string, requestKey: string): string {
  return `a1:${customerKey}:${requestKey}`;
}

/** The binding a `cardBindingRefOf` names, or null: a `CustomerKey` of ≤ 36 printable characters without a colon. */
export function parseCardBindingRef(ref: string): CardBindingRef | null {
  const match = /^a1:([\x21-\x39\x3b-\x7e]{1,36}):([0-9A-Za-z-]{1,64})$/.exec(ref);
  return match === null ? null : { customerKey: match[1] ?? "", requestKey: match[2] ?? "" };
}

/**
 * A refund's id: T-Bank has none, so the payment, the amount, whether the refund's own `Cancel` answered it
 * done (`s`) or still refunding (`p`), and the `ExternalRequestId` sent with it: `r2:<PaymentId>:<kopecks>:<s|p>:<id>`.
 * Ids of the earlier form `r1:<PaymentId>:<kopecks>:<id>` (no answer kept) are still read.
 */
export function refundIdOf(
  paymentId: string,
  kopecks: number,
  externalRequestId: string,
  done: boolean,
): string {
  return `r2:${paymentId}:${kopecks}:${done ? "s" : "p"}:${externalRequestId}`;
}

export function parseRefundId(
  id: string,
): { paymentId: string; kopecks: number; done: boolean | null; externalRequestId: string } | null {
  const current = /^r2:([0-9A-Za-z_-]{1,20}):([0-9]{1,10}):([sp]):(.{1,36})$/.exec(id);
  if (current !== null)
    return {
      paymentId: current[1] ?? "",
      kopecks: Number(current[2]),
      done: current[3] === "s",
      externalRequestId: current[4] ?? "",
    };
  const match = /^r1:([0-9A-Za-z_-]{1,20}):([0-9]{1,10}):(.{1,36})$/.exec(id);
  if (match === null) return null;
  return {
    paymentId: match[1] ?? "",
    kopecks: Number(match[2]),
    done: null,
    externalRequestId: match[3] ?? "",
  };
}
