import { err, ok, type Result } from "neverthrow";
import type { KopekError } from "../api/errors.js";
import { addPeriods, describePeriod } from "../domain/billing-period.js";
import type { Subscription } from "../domain/model.js";
import { formatMoney } from "../domain/money.js";
import { presentSubscription } from "../domain/presenters.js";
import { subscriptionEvent } from "../events/domain-event.js";
import { newPayment } from "../payments/payment-records.js";
import type { StoredMethodDescription } from "../ports/payment-provider.js";
import { formatCardMask } from "../validation/card-guard.js";
import type { CreateSubscriptionRequest } from "../validation/schemas.js";
import { type Execution, fromProviderError, type Outcome, providerKey } from "./execution.js";

/**
 * Creates a subscription in the order of API.md 5.3: refuse a method the provider cannot charge
 * stored (before any charge), describe the stored method, charge the first cycle, then hand back the
 * subscription for storing. The charge carries a key derived from the record, so a re-execution after a
 * crash is answered by the provider with the first charge instead of a second one.
 */
export async function createSubscription(
  execution: Execution,
  input: CreateSubscriptionRequest,
): Promise<Result<Outcome, KopekError>> {
  const { provider, project, now } = execution;
  if (!provider.capabilities.storedMethodCharge.includes(input.method)) {
    return err({
      code: "method_unavailable",
      detail: `the project's payment provider cannot charge a stored ${input.method} method`,
    });
  }
  const described = await provider.describeStoredMethod({
    ref: input.providerMethodRef,
    method: input.method,
  });
  if (described.isErr()) return err(fromProviderError(described.error));

  const description = input.description ?? `${formatMoney(input.amount)} ${describePeriod(input.period)}`;
  const charged = await provider.chargeStoredMethod({
    ref: input.providerMethodRef,
    method: input.method,
    money: input.amount,
    description,
    idempotencyKey: providerKey(execution, "first-charge"),
  });
  if (charged.isErr()) return err(fromProviderError(charged.error));

  const nextChargeAt = addPeriods(now, input.period, 1);
  const subscription: Subscription = {
    id: execution.recordId,
    projectId: project.id,
    status: "active",
    amount: { amount: input.amount.amount, currency: input.amount.currency },
    period: { unit: input.period.unit, count: input.period.count },
    method: input.method,
    providerMethodRef: input.providerMethodRef,
    methodMask: maskOf(described.value),
    description,
    metadata: input.metadata ?? {},
    startedAt: now,
    nextChargeAt,
    lastChargedAt: now,
    cyclesStarted: 1,
    createdAt: now,
    canceledAt: null,
    cancelReason: null,
    nextCycle: 1,
    nextAttemptAt: nextChargeAt,
    declines: 0,
    firstDeclinedAt: null,
    version: 1,
  };
  // The first cycle's charge, stored with the subscription it started (API.md 10.5).
  const payment = newPayment(
    {
      projectId: project.id,
      amount: subscription.amount,
      method: subscription.method,
      methodMask: subscription.methodMask,
      provider: project.provider.kind,
      providerPaymentId: charged.value.chargeId,
      for: { subscriptionId: subscription.id, cycle: 1 },
    },
    { status: "succeeded" },
    execution.ids.newId(),
    now,
  );
  return ok({
    status: 201,
    resource: { kind: "subscription", subscription },
    payments: [payment],
    location: `/v1/subscriptions/${subscription.id}`,
    body: presentSubscription(subscription),
    events: [subscriptionEvent("subscription.created", subscription, now, execution.ids)],
  });
}

function maskOf(description: StoredMethodDescription): string {
  return description.kind === "card" ? formatCardMask(description) : description.mask;
}
