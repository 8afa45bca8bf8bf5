import { err, ok, type Result } from "neverthrow";
import type { KopekError } from "../domain/errors.js";
import type { Payment } from "../domain/model.js";
import { trustedPaymentAnswer } from "../payments/amount-rule.js";
import {
  answeredOver,
  newPayment,
  type PaymentAnswer,
  type PaymentSubject,
} from "../payments/payment-records.js";
import type { ProviderError, ProviderPayment, StoredMethodCharge } from "../ports/payment-provider.js";
import { type Execution, fromProviderError } from "./execution.js";

/** Charges, then asks again while the provider says `pending`, for at most `pendingChargeWaitMs`. */
export async function chargeAndWait(
  execution: Execution,
  request: StoredMethodCharge,
): Promise<Result<ProviderPayment, ProviderError>> {
  const { provider } = execution;
  const charged = await provider.chargeStoredMethod(request);
  if (charged.isErr() || charged.value.status !== "pending") return charged;
  const deadline = Date.now() + execution.pendingChargeWaitMs;
  let pause = 200;
  let latest = charged.value;
  while (Date.now() + pause <= deadline) {
    await new Promise((resolve) => setTimeout(resolve, pause));
    pause = Math.min(pause * 2, 2_000);
    const asked = await provider.getPayment(latest.providerPaymentId);
    // No answer this time: still pending as far as Kopek knows; reconciliation asks later.
    if (asked.isErr()) continue;
    latest = asked.value;
    if (latest.status !== "pending") break;
  }
  return ok(latest);
}

/** A recorded charge the provider decided: the Payment as answered (one version on), succeeded or canceled. */
export interface DecidedCharge {
  readonly status: "succeeded" | "canceled";
  readonly payment: Payment;
}

/**
 * Charges the pending Payment a request committed before any call (`recorded`, its id the request's
 * record) with `request`'s key, and answers it as the provider's trusted word (API.md 10.1) decided
 * it: succeeded or declined, for the caller to store with what it pays for. No answer: the provider's
 * error (Kopek asks again with the same key). Still pending after the wait: the Payment is noted with
 * the provider's id (reconciliation asks by it) and the request answers 503 (`what` says which charge).
 */
export async function chargeRecorded(
  execution: Execution,
  recorded: Payment,
  request: Omit<StoredMethodCharge, "paymentId" | "money">,
  subjectOf: (providerPaymentId: string | null) => PaymentSubject,
  what: string,
): Promise<Result<DecidedCharge, KopekError>> {
  const charged = await chargeAndWait(execution, {
    ...request,
    paymentId: recorded.id,
    money: recorded.amount,
  });
  if (charged.isErr()) return err(fromProviderError(charged.error));
  const answer = trustedPaymentAnswer(recorded, charged.value, execution.onAmountMismatch);
  const subject = subjectOf(answer.providerPaymentId);
  const answered = (status: PaymentAnswer) =>
    answeredOver(recorded, newPayment(subject, status, recorded.id, execution.now));
  if (answer.status === "pending") {
    await execution.storage.savePayment(answered({ status: "pending" }), []);
    return err({ code: "provider_unavailable", cause: new Error(`${what} is still pending`) });
  }
  if (answer.status === "canceled")
    return ok({
      status: "canceled",
      payment: answered({ status: "canceled", failureCode: answer.failureCode ?? "payment_declined" }),
    });
  return ok({ status: "succeeded", payment: answered({ status: "succeeded" }) });
}
