import { ok, type Result } from "neverthrow";
import type { Money, Payment, PaymentStatus, Refund } from "../domain/model.js";
import type { ProviderError, ProviderPayment, ProviderRefund } from "../ports/payment-provider.js";

/**
 * A provider's word refused because its amount or currency is not what Kopek asked for (API.md 10.1):
 * it settled nothing, and the payment (or refund) stays pending for an operator. Plain data for the
 * embedding's log and metrics; it holds no token.
 */
export interface AmountMismatch {
  readonly projectId: string;
  /** The provider kind (`ProviderSettings.kind`). */
  readonly provider: string;
  readonly kind: "payment" | "refund";
  /** The Payment the word is about; for a refund, the Payment it refunds. */
  readonly paymentId: string;
  /** The Refund the word is about; null for a payment's word. */
  readonly refundId: string | null;
  readonly providerPaymentId: string;
  /** What Kopek asked for: the Payment's (or the Refund's) amount. */
  readonly expected: Money;
  /** What the provider said; null when its answer did not say. */
  readonly answered: Money | null;
  /** The status the provider answered. */
  readonly status: PaymentStatus;
}

/** Told about every refused word; called synchronously, it must not throw. */
export type OnAmountMismatch = (mismatch: AmountMismatch) => void;

/** Whether two sums are the same money: the same amount in minor units and the same currency. */
export function sameMoney(a: Money, b: Money): boolean {
  return a.amount === b.amount && a.currency === b.currency;
}

/**
 * Whether a word may be acted on for money Kopek asked for: `succeeded` only with that very money;
 * `canceled` unless it names other money (a word that says nothing of money, like `NO_PAYMENT_MADE`,
 * still ends a payment that moved nothing); `pending` settles nothing, so it always passes.
 */
export function moneyAgrees(expected: Money, status: PaymentStatus, answered: Money | null): boolean {
  if (status === "pending") return true;
  if (status === "succeeded") return answered !== null && sameMoney(expected, answered);
  return answered === null || sameMoney(expected, answered);
}

/**
 * The provider's word about `payment` to act on (API.md 10.1): the answer itself when its money agrees,
 * else a pending answer that keeps the provider's id (so the payment's check continues) and settles
 * nothing, saves no method; the refused word is reported to `onMismatch`.
 */
export function trustedPaymentAnswer(
  payment: Payment,
  answer: ProviderPayment,
  onMismatch: OnAmountMismatch | undefined,
): ProviderPayment {
  if (moneyAgrees(payment.amount, answer.status, answer.money)) return answer;
  onMismatch?.({
    projectId: payment.projectId,
    provider: payment.provider,
    kind: "payment",
    paymentId: payment.id,
    refundId: null,
    providerPaymentId: answer.providerPaymentId,
    expected: payment.amount,
    answered: answer.money,
    status: answer.status,
  });
  return {
    providerPaymentId: answer.providerPaymentId,
    status: "pending",
    failureCode: null,
    methodMask: answer.methodMask,
    savedMethod: null,
    money: answer.money,
  };
}

/** The same rule for a refund's answer: one whose money is not the Refund's settles nothing (stays pending). */
export function trustedRefundAnswer(
  refund: Refund,
  payment: Payment,
  answer: Result<ProviderRefund, ProviderError>,
  onMismatch: OnAmountMismatch | undefined,
): Result<ProviderRefund, ProviderError> {
  if (answer.isErr()) return answer;
  const word = answer.value;
  if (moneyAgrees(refund.amount, word.status, word.money)) return answer;
  onMismatch?.({
    projectId: refund.projectId,
    provider: payment.provider,
    kind: "refund",
    paymentId: payment.id,
    refundId: refund.id,
    providerPaymentId: word.providerPaymentId,
    expected: refund.amount,
    answered: word.money,
    status: word.status,
  });
  return ok({ ...word, status: "pending" });
}
