import type {
  PaymentFailureCode,
  PaymentStatus,
  ProviderError,
  ProviderPayment,
  ProviderRefund,
  ProviderSavedMethod,
} from "@kopek/core";
import { formatCardMask } from "@kopek/core";
import { fromYooKassaAmount } from "./amount.js";
import type { CallFailure } from "./yookassa-client.js";
import type { YooKassaCard, YooKassaPayment, YooKassaRefund } from "./yookassa-schemas.js";

/**
 * YooKassa never tells a card number's length, only its first six and last four digits; 16 is the
 * length of nearly every Mir, Visa and Mastercard card issued in Russia, so masks assume it.
 */
export const ASSUMED_CARD_LENGTH = 16;

// cancellation_details.reason, from yookassa.ru/developers/payments/declined-payments and the official Python
// SDK's CancellationDetailsReasonCode (which adds payment_expired). Kopek's codes
// say what the payer or the merchant can do next; unknown future reasons count as declines.
const FAILURE_CODES: Readonly<Record<string, PaymentFailureCode>> = {
  expired_on_confirmation: "expired",
  payment_expired: "expired",
  expired_on_capture: "expired",
  deal_expired: "expired",
  // Only Kopek cancels through the API, and only for an invoice that expired or was canceled (API.md 10.3.6).
  canceled_by_merchant: "expired",
  // The payer withdrew the permission to charge a saved method without them.
  permission_revoked: "canceled_by_payer",
  // "Technical problems on YooMoney's side": nothing the payer did.
  internal_timeout: "provider_error",
};

export function failureCodeOf(reason: string): PaymentFailureCode {
  return FAILURE_CODES[reason] ?? "payment_declined";
}

export function statusOf(status: YooKassaPayment["status"]): PaymentStatus {
  // waiting_for_capture exists only in two-stage payments; Kopek asks for capture: true, so it is not final.
  return status === "waiting_for_capture" ? "pending" : status;
}

/** The card mask Kopek shows ("5555 55** **** 4444"), or null when YooKassa did not tell the digits. */
export function methodMaskOf(payment: YooKassaPayment): string | null {
  return cardMaskOf(payment.payment_method?.card);
}

/** The mask of a method's `card` (BankCardData), a payment's or a saved method's; null without the digits. */
export function cardMaskOf(card: YooKassaCard | undefined): string | null {
  if (card?.first6 === undefined || !/^[0-9]{6}$/.test(card.first6) || !/^[0-9]{4}$/.test(card.last4))
    return null;
  return formatCardMask({ first6: card.first6, last4: card.last4, length: ASSUMED_CARD_LENGTH });
}

export function providerPaymentOf(payment: YooKassaPayment): ProviderPayment {
  const status = statusOf(payment.status);
  const reason = payment.cancellation_details?.reason;
  return {
    providerPaymentId: payment.id,
    status,
    failureCode: status === "canceled" ? failureCodeOf(reason ?? "") : null,
    methodMask: methodMaskOf(payment),
    savedMethod: savedMethodOf(payment),
    // Null when YooKassa's amount cannot be read: a final word without money settles nothing (API.md 10.1).
    money: fromYooKassaAmount(payment.amount),
    kopekPaymentId: payment.metadata?.kopekPaymentId ?? null,
  };
}

/**
 * The method a succeeded payment saved (asked with `save_payment_method: true`): YooKassa answers
 * `payment_method.saved: true`, and its `payment_method.id` is what later charges send as
 * `payment_method_id` (yookassa.ru/developers/payment-acceptance/scenario-extensions/recurring-payments/save-payment-method/save-during-payment).
 */
export function savedMethodOf(payment: YooKassaPayment): ProviderSavedMethod | null {
  const method = payment.payment_method;
  if (payment.status !== "succeeded" || method?.saved !== true || method.id === "") return null;
  return { ref: method.id, methodMask: methodMaskOf(payment) };
}

export function providerRefundOf(refund: YooKassaRefund): ProviderRefund | null {
  const money = fromYooKassaAmount(refund.amount);
  if (money === null) return null;
  return { providerRefundId: refund.id, providerPaymentId: refund.payment_id, status: refund.status, money };
}

/**
 * A call's failure as the port's error. No answer (network, timeout, 429 or 5xx after the retries, an
 * answer of unexpected shape) is `unavailable`: the outcome is unknown. A 4xx is YooKassa refusing the
 * request (yookassa.ru/developers/using-api/response-handling/http-codes): `failed`, with YooKassa's
 * `code`, `description`, `parameter` and error `id` from the body, so the log tells what to fix. The
 * client has already taken the secret key out of the body's texts; a method ref is the caller's to hide.
 */
export function providerErrorOf(failure: CallFailure): ProviderError {
  if (failure.kind === "unavailable") return { code: "unavailable", message: failure.message };
  const { status, error } = failure;
  const description = error.description === undefined ? "" : `: ${error.description}`;
  const parameter = error.parameter === undefined ? "" : ` (parameter ${error.parameter})`;
  const id = error.id === undefined ? "" : ` [error id ${error.id}]`;
  const refusal = `YooKassa refused the request: ${status} ${error.code}${description}${parameter}${id}`;
  if (status === 401) return { code: "failed", message: `${refusal}; check the shop id and the secret key` };
  return { code: "failed", message: refusal };
}
