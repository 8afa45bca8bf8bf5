import { err, ok, type Result } from "neverthrow";
import type { KopekError } from "../domain/errors.js";
import type { Payment, Subscription } from "../domain/model.js";
import { presentSubscription } from "../domain/presenters.js";
import { subscriptionEvent } from "../events/domain-event.js";
import { newPayment, type PaymentSubject, subscriptionPaymentSubject } from "../payments/payment-records.js";
import { DEFAULT_DUNNING_POLICY } from "../renewals/renewal-schedule.js";
import {
  applyChargeResult,
  cycleOfPeriod,
  periodOfCycle,
  renewalChargeKey,
} from "../renewals/renewal-transition.js";
import { outcomeOf } from "./change-subscription.js";
import { chargeRecorded } from "./charge-and-wait.js";
import { type Execution, fromStorageError, type Outcome } from "./execution.js";
import { changeSubscription } from "./subscription-changes.js";

/** How many times a resume whose write lost a race reads the subscription again. */
const ATTEMPTS = 3;

/**
 * POST /v1/subscriptions/{id}/resume (API.md 11.4). Before `pauseAt` it only clears it
 * (`subscription.updated`). A paused subscription is charged at once, as a create: a new cycle (the
 * period it paused before), the schedule re-anchored at this moment, `cyclesStarted` + 1,
 * `subscription.resumed`; declined, 402 and it stays paused.
 *
 * The charge is a renewal's attempt made now: its pending Payment (id: the request's record) is
 * committed first with the subscription `active` and moved off its schedule, and its key is the
 * renewal key of that period — a period never charged before, since the pause skipped it, and each
 * resume charges the period after the last one paid. So when no answer comes (503), the renewal
 * worker sends the same key again after `outageRetryMs` and settles it like any renewal, and a retry
 * of the request with its key continues the same attempt.
 */
export async function resumeSubscription(
  execution: Execution,
  _input: unknown,
  id: string,
): Promise<Result<Outcome, KopekError>> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const found = await execution.storage.findSubscription(execution.project.id, id);
    if (found.isErr()) return err(fromStorageError(found.error));
    const current = found.value;
    if (current === null) return err({ code: "not_found" });
    const earlier = await execution.storage.findPayment(execution.project.id, execution.recordId);
    if (earlier.isErr()) return err(fromStorageError(earlier.error));
    if (earlier.value !== null) return continued(execution, current, earlier.value);
    if (current.status !== "paused") return unpaused(execution, current);
    const recorded = await recordResume(execution, current);
    if (recorded === "lost_race") continue;
    if (recorded.isErr()) return err(recorded.error);
    return charged(execution, current, recorded.value.subscription, recorded.value.payment);
  }
  return err({ code: "storage_unavailable", cause: new Error("resume: the subscription kept changing") });
}

/** Not paused: a pause asked is undone; anything else cannot be resumed. */
function unpaused(execution: Execution, current: Subscription): Result<Outcome, KopekError> {
  return changeSubscription(current, { kind: "unpause" }, execution.now, execution.ids).map((changed) =>
    outcomeOf(current, changed),
  );
}

/** A re-execution of this request: its attempt still open is charged again with its key; one settled answers as it ended. */
async function continued(
  execution: Execution,
  current: Subscription,
  payment: Payment,
): Promise<Result<Outcome, KopekError>> {
  if (payment.status === "pending") return charged(execution, null, current, payment);
  if (payment.status === "succeeded")
    return ok({ status: 200, resource: null, body: presentSubscription(current), events: [] });
  return err({ code: "payment_declined", detail: "the provider declined the resume's charge" });
}

/** The attempt committed: the subscription active, re-anchored now, off its schedule, with its pending Payment. */
async function recordResume(
  execution: Execution,
  paused: Subscription,
): Promise<Result<{ subscription: Subscription; payment: Payment }, KopekError> | "lost_race"> {
  const { now } = execution;
  const period = paused.nextCycle;
  const subscription: Subscription = {
    ...paused,
    status: "active",
    pauseAt: null,
    anchorAt: now,
    anchorPeriod: period,
    nextChargeAt: now,
    // Due again when a lost answer should be asked about (the renewal worker then sends the same key).
    nextAttemptAt: new Date(now.getTime() + DEFAULT_DUNNING_POLICY.outageRetryMs),
    version: paused.version + 1,
  };
  const payment = newPayment(
    subjectOf(execution, subscription, null),
    { status: "pending" },
    execution.recordId,
    now,
  );
  const saved = await execution.storage.saveSubscription(subscription, [], [payment]);
  if (saved.isOk()) return ok({ subscription, payment });
  return saved.error.code === "conflict" ? "lost_race" : err(fromStorageError(saved.error));
}

/**
 * Charges the recorded attempt and answers as the provider did. `paused`: the subscription as it was
 * before the attempt (null on a re-execution: a decline then leaves it to the renewal worker's rules).
 */
async function charged(
  execution: Execution,
  paused: Subscription | null,
  recorded: Subscription,
  payment: Payment,
): Promise<Result<Outcome, KopekError>> {
  const cycle = payment.cycle ?? cycleOfPeriod(recorded.nextCycle);
  const charged = await chargeRecorded(
    execution,
    payment,
    {
      ref: recorded.providerMethodRef,
      method: recorded.method,
      description: recorded.description,
      receipt: recorded.receipt,
      idempotencyKey: renewalChargeKey(recorded, cycle),
    },
    (providerPaymentId) => subjectOf(execution, recorded, providerPaymentId),
    "the resume's charge",
  );
  if (charged.isErr()) return err(charged.error);
  const { now } = execution;
  if (charged.value.status === "canceled") {
    // It stays paused; the next resume's key differs (a provider replays a remembered decline). On a
    // re-execution the state before is gone: the decline is then a renewal's (past due, dunning).
    const decline = { kind: "declined", at: now } as const;
    const back =
      paused === null
        ? applyChargeResult(recorded, periodOfCycle(cycle), decline, DEFAULT_DUNNING_POLICY)
        : {
            ...paused,
            declines: paused.declines + 1,
            firstDeclinedAt: paused.firstDeclinedAt ?? now,
            version: recorded.version + 1,
          };
    const saved = await execution.storage.saveSubscription(back, [], [charged.value.payment]);
    if (saved.isErr()) return err(fromStorageError(saved.error));
    return err({ code: "payment_declined", detail: "the provider declined the resume's charge" });
  }
  const resumed = applyChargeResult(
    recorded,
    periodOfCycle(cycle),
    { kind: "charged", at: now },
    DEFAULT_DUNNING_POLICY,
  );
  return ok({
    status: 200,
    resource: { kind: "subscription", subscription: resumed },
    payments: [charged.value.payment],
    body: presentSubscription(resumed),
    events: [subscriptionEvent("subscription.resumed", resumed, now, execution.ids)],
  });
}

function subjectOf(
  execution: Execution,
  subscription: Subscription,
  providerPaymentId: string | null,
): PaymentSubject {
  const cycle = cycleOfPeriod(subscription.nextCycle);
  return subscriptionPaymentSubject(subscription, {
    provider: execution.project.provider.kind,
    providerPaymentId,
    cycle,
  });
}
