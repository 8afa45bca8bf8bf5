import { err, ok, type Result } from "neverthrow";
import type { KopekError } from "../domain/errors.js";
import type { Money, Payment, Subscription } from "../domain/model.js";
import { presentSubscription } from "../domain/presenters.js";
import { oneItemReceipt } from "../domain/receipt.js";
import { subscriptionUpdatedEvent } from "../events/domain-event.js";
import { newPayment, type PaymentSubject, subscriptionPaymentSubject } from "../payments/payment-records.js";
import { chargeRecorded } from "./charge-and-wait.js";
import { type Execution, fromStorageError, type Outcome } from "./execution.js";

/**
 * The provider key of a proration charge: derived from its Payment's id, which is the request's
 * idempotency record, so a re-execution sends the same key and reconciliation can ask the provider
 * about it from the Payment alone (`findPaymentByKey`).
 */
export function prorationChargeKey(paymentId: string): string {
  return `kopek:proration:${paymentId}`;
}

/**
 * Charges the prorated difference of a change (API.md 11.3), then stores the change with its succeeded
 * Payment in one step. As a create's first charge: the pending Payment (kind `proration`, the current
 * cycle) is committed first; a re-execution finds it and sends its charge again with the same key and
 * amount. Declined: 402 and nothing changes. Still pending after the wait, or no answer: 503, the
 * Payment stays pending and the change unmade — the retry with the same key asks again; if none comes,
 * reconciliation settles the Payment and refunds money that moved for a change never made.
 */
export async function chargeProration(
  execution: Execution,
  current: Subscription,
  next: Subscription,
  prorate: Money,
): Promise<Result<Outcome, KopekError>> {
  const recorded = await recordProration(execution, current, prorate);
  if (recorded.isErr()) return err(recorded.error);
  const payment = recorded.value;
  const charged = await chargeRecorded(
    execution,
    payment,
    {
      ref: current.providerMethodRef,
      method: current.method,
      description: next.description,
      receipt: oneItemReceipt(next.receipt, payment.amount),
      idempotencyKey: prorationChargeKey(payment.id),
    },
    (providerPaymentId) => subjectOf(execution, current, payment.amount, providerPaymentId),
    "the prorated charge",
  );
  if (charged.isErr()) return err(charged.error);
  if (charged.value.status === "canceled") {
    await execution.storage.savePayment(charged.value.payment, []);
    return err({ code: "payment_declined", detail: "the provider declined the prorated charge" });
  }
  return ok({
    status: 200,
    resource: { kind: "subscription", subscription: next },
    payments: [charged.value.payment],
    body: presentSubscription(next),
    events: [subscriptionUpdatedEvent(current, next, execution.now, execution.ids)],
  });
}

function subjectOf(
  execution: Execution,
  subscription: Subscription,
  amount: Money,
  providerPaymentId: string | null,
): PaymentSubject {
  // The cycle being paid now: period nextCycle − 1, which Payments count as cycle nextCycle.
  return subscriptionPaymentSubject(subscription, {
    provider: execution.project.provider.kind,
    providerPaymentId,
    cycle: subscription.nextCycle,
    kind: "proration",
    amount,
  });
}

/**
 * The request's pending proration Payment: the one a first execution recorded (its id is the request's
 * record), or a new one committed before any charge. One already settled answers as it ended.
 */
async function recordProration(
  execution: Execution,
  subscription: Subscription,
  prorate: Money,
): Promise<Result<Payment, KopekError>> {
  const { storage, project, recordId } = execution;
  const found = await storage.findPayment(project.id, recordId);
  if (found.isErr()) return err(fromStorageError(found.error));
  const earlier = found.value;
  if (earlier !== null) {
    if (earlier.status === "pending") return ok(earlier);
    if (earlier.status === "canceled" && earlier.failureCode === "payment_declined")
      return err({ code: "payment_declined", detail: "the provider declined the prorated charge" });
    return err({
      code: "invalid_state",
      detail:
        `this request did not complete and its prorated charge (payment ${earlier.id}) was settled ` +
        "without it (refunded if it moved money); send the request again with a new Idempotency-Key",
    });
  }
  const payment = newPayment(
    subjectOf(execution, subscription, prorate, null),
    { status: "pending" },
    recordId,
    execution.now,
  );
  const saved = await storage.savePayment(payment, []);
  return saved.isErr() ? err(fromStorageError(saved.error)) : ok(payment);
}
