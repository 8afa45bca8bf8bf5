/**
 * A saved card as Kopek keeps it: `<CustomerKey>:<RebillId>`. `Charge` needs only the `RebillId`
 * (developer.tbank.ru/eacq/api/charge), but only `GetCardList` of the customer tells the card's digits,
 * and it is asked by `CustomerKey` — so the ref carries both. A bare `RebillId` can be charged, not described.
 */
export interface StoredCardRef {
  readonly customerKey: string | null;
  readonly rebillId: string;
}

export function parseStoredRef(ref: string): StoredCardRef | null {
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

export function parseBoundAccountRef(ref: string): BoundAccountRef | null {
  const match = /^q1:([0-9A-Za-z-]{1,64}):([\x21-\x7e]{1,128})$/.exec(ref);
  return match === null ? null : { requestKey: match[1] ?? "", accountToken: match[2] ?? "" };
}

export function boundAccountRefOf(requestKey: string, accountToken: string): string {
  return `q1:${requestKey}:${accountToken}`;
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
