import { err, ok, type Result } from "neverthrow";
import type { KopekError } from "../domain/errors.js";
import { generatedSubscriptionDescription } from "../domain/generated-descriptions.js";
import { newSubscription } from "../domain/new-subscription.js";
import { presentSubscription } from "../domain/presenters.js";
import { subscriptionEvent } from "../events/domain-event.js";
import { trustedPaymentAnswer } from "../payments/amount-rule.js";
import { answeredOver, newPayment, type PaymentSubject } from "../payments/payment-records.js";
import type { ProviderError } from "../ports/payment-provider.js";
import type { CreateSubscriptionRequest } from "../validation/schemas.js";
import { chargeAndWait } from "./charge-and-wait.js";
import { checkedCustomerId } from "./customer-check.js";
import { type Execution, fromProviderError, type Outcome } from "./execution.js";
import { firstChargeKey, recordFirstCharge } from "./first-charge.js";
import { maskOf } from "./method-mask.js";
import { receiptFor } from "./receipt-request.js";
import { createSubscriptionFromInvoice } from "./subscription-from-invoice.js";
import { startTrial } from "./trial.js";

/**
 * Creates a subscription in the order of API.md 5.3: refuse a method the provider cannot charge
 * stored (before any charge), describe the stored method, commit the first charge's pending Payment,
 * charge the first cycle, then hand back the subscription for storing. The charge carries a key
 * derived from the record, so a re-execution after a crash is answered by the provider with the first
 * charge instead of a second one; when the subscription is never stored, reconciliation finds the
 * Payment and refunds what it moved (`recordFirstCharge`).
 */
export async function createSubscription(
  execution: Execution,
  input: CreateSubscriptionRequest,
): Promise<Result<Outcome, KopekError>> {
  if (input.invoiceId !== undefined) return createSubscriptionFromInvoice(execution, input);
  const { provider, project, now } = execution;
  if (!provider.capabilities.storedMethodCharge.includes(input.method)) {
    return err({
      code: "method_unavailable",
      detail: `the project's payment provider cannot charge a stored ${input.method} method`,
    });
  }
  const receipt = receiptFor(provider, input.receipt);
  if (receipt.isErr()) return err(receipt.error);
  const customer = await checkedCustomerId(execution, input.customerId);
  if (customer.isErr()) return err(customer.error);
  const customerId = customer.value;
  const described = await provider.describeStoredMethod({
    ref: input.providerMethodRef,
    method: input.method,
  });
  if (described.isErr()) return err(describeRefusal(described.error));

  const description = input.description ?? generatedSubscriptionDescription(input.amount, input.period);
  const methodMask = maskOf(described.value);
  if (input.trialEnd !== undefined)
    return ok(
      startTrial(execution, input, new Date(input.trialEnd), {
        description,
        methodMask,
        receipt: receipt.value,
        customerId,
      }),
    );
  const subject = (providerPaymentId: string | null): PaymentSubject => ({
    projectId: project.id,
    amount: input.amount,
    method: input.method,
    methodMask,
    provider: project.provider.kind,
    providerPaymentId,
    customerId,
    for: { subscriptionId: execution.recordId, cycle: 1 },
  });
  const recorded = await recordFirstCharge(execution, subject(null));
  if (recorded.isErr()) return err(recorded.error);
  const charged = await chargeAndWait(execution, {
    paymentId: recorded.value.id,
    ref: input.providerMethodRef,
    method: input.method,
    money: input.amount,
    description,
    receipt: receipt.value,
    idempotencyKey: firstChargeKey(execution.recordId),
  });
  // No answer, or one Kopek could not read: the money may have moved. The recorded Payment stays
  // pending: a retry sends the same key, and reconciliation asks the provider what the call did.
  if (charged.isErr()) return err(fromProviderError(charged.error));
  // A word for other money settles nothing: the subscription is `incomplete` while its charge stays pending (API.md 10.1).
  const answer = trustedPaymentAnswer(recorded.value, charged.value, execution.onAmountMismatch);
  if (answer.status === "canceled") {
    const declined = newPayment(
      subject(answer.providerPaymentId),
      { status: "canceled", failureCode: answer.failureCode ?? "payment_declined" },
      recorded.value.id,
      now,
    );
    // Not stored (a lost race or an outage): reconciliation settles it on the provider's word instead.
    await execution.storage.savePayment(answeredOver(recorded.value, declined), []);
    return err({ code: "payment_declined", detail: "the provider declined the first charge" });
  }

  // Pending at the provider: `incomplete` until the payment settles (API.md 10.5); never renewed meanwhile.
  const pending = answer.status === "pending";
  const subscription = newSubscription({
    id: execution.recordId,
    projectId: project.id,
    amount: input.amount,
    period: input.period,
    method: input.method,
    providerMethodRef: input.providerMethodRef,
    methodMask,
    description,
    metadata: input.metadata ?? {},
    receipt: receipt.value,
    customerId,
    invoiceId: null,
    createdAt: now,
    first: { kind: pending ? "pending" : "charged", at: now },
  });
  // The first cycle's charge, stored with the subscription it started (API.md 10.5).
  const answered = newPayment(
    subject(answer.providerPaymentId),
    pending ? { status: "pending" } : { status: "succeeded" },
    recorded.value.id,
    now,
  );
  const payment = answeredOver(recorded.value, answered);
  return ok({
    status: 201,
    resource: { kind: "subscription", subscription },
    payments: [payment],
    location: `/v1/subscriptions/${subscription.id}`,
    body: presentSubscription(subscription),
    events: [subscriptionEvent("subscription.created", subscription, now, execution.ids)],
  });
}

/**
 * Why the provider did not describe the request's method: a ref it holds no method for (one it cannot
 * read, or does not know) is the request's mistake, 422 at `#/providerMethodRef`; anything else is
 * the provider's answer (402, 502, 503).
 */
function describeRefusal(error: ProviderError): KopekError {
  if (error.code !== "failed" || error.unknownRef !== true) return fromProviderError(error);
  return {
    code: "validation_failed",
    errors: [
      {
        pointer: "#/providerMethodRef",
        code: "invalid_value",
        detail: "the project's payment provider holds no stored method with this ref",
      },
    ],
  };
}
