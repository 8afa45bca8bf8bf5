import type { PaymentFailureCode, PaymentStatus, ProviderError, ProviderPayment } from "@kopek/core";
import { formatCardMask } from "@kopek/core";
import { fromKopecks } from "./amount.js";
import type { CallFailure } from "./tbank-client.js";

// T-Bank's payment statuses (developer.tbank.ru/eacq/intro/developer/statuses, as PROVIDERS.md and the
// community SDKs list them). Kopek makes one-stage payments, so AUTHORIZED is on its way to CONFIRMED.
// A refunded payment was paid: its refunds are Kopek's refund records, not the payment's status.
const SUCCEEDED = new Set(["CONFIRMED", "PARTIAL_REFUNDED", "REFUNDING", "REFUNDED"]);
const CANCELED: Readonly<Record<string, PaymentFailureCode>> = {
  REJECTED: "payment_declined",
  AUTH_FAIL: "payment_declined",
  DEADLINE_EXPIRED: "expired",
  // Only Kopek cancels through the API, and only for an invoice that expired or was canceled (API.md 10.3.6).
  CANCELED: "expired",
  // An authorization reversed before it was confirmed: T-Bank's side gave up on it.
  REVERSED: "provider_error",
  PARTIAL_REVERSED: "provider_error",
};

/** Statuses after which a payment will never be paid; an order may then be tried again. */
export function isFailedStatus(status: string): boolean {
  return status in CANCELED;
}

/**
 * Kopek's word for a T-Bank status. NEW, FORM_SHOWED, AUTHORIZING, 3DS_CHECKING, 3DS_CHECKED,
 * AUTHORIZED, CONFIRMING and any status not known here are `pending`: never settle on a word not understood.
 */
export function statusOf(status: string): PaymentStatus {
  if (SUCCEEDED.has(status)) return "succeeded";
  return status in CANCELED ? "canceled" : "pending";
}

export function failureCodeOf(status: string): PaymentFailureCode | null {
  return CANCELED[status] ?? null;
}

/**
 * The card mask from T-Bank's `Pan` (`"430000******0777"`): T-Bank shows the first six and last four
 * digits and masks the rest, so unlike YooKassa the number's length is known.
 */
export function cardOfPan(pan: string): { first6: string; last4: string; length: number } | null {
  const match = /^([0-9]{6})[*Xx•]+([0-9]{4})$/.exec(pan.replace(/\s+/g, ""));
  if (match === null) return null;
  const length = pan.replace(/\s+/g, "").length;
  if (length < 13 || length > 19) return null;
  return { first6: match[1] ?? "", last4: match[2] ?? "", length };
}

export function maskOfPan(pan: string | undefined): string | null {
  const card = pan === undefined ? null : cardOfPan(pan);
  return card === null ? null : formatCardMask(card);
}

/**
 * The port's payment from a T-Bank answer. `amount`: the answer's `Amount` in kopecks (a Cancel's
 * `OriginalAmount`), undefined when that answer has none: the money is then null, and a final word
 * without money settles nothing at Kopek (API.md 10.1).
 */
export function providerPaymentOf(
  paymentId: string,
  status: string,
  amount: number | undefined,
  methodMask: string | null = null,
): ProviderPayment {
  const mapped = statusOf(status);
  return {
    providerPaymentId: paymentId,
    status: mapped,
    failureCode: mapped === "canceled" ? failureCodeOf(status) : null,
    methodMask,
    savedMethod: null,
    money: amount === undefined ? null : fromKopecks(amount),
  };
}

/** A call's failure as the port's error; the message names T-Bank's code, never the password or a token. */
export function providerErrorOf(failure: CallFailure): ProviderError {
  if (failure.kind === "unavailable") return { code: "unavailable", message: failure.message };
  const { ErrorCode, Message, Details } = failure.answer;
  const text = [Message, Details].filter((part) => part !== undefined && part !== "").join(": ");
  return { code: "failed", message: `T-Bank ErrorCode ${ErrorCode}${text === "" ? "" : ` (${text})`}` };
}
