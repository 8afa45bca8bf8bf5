import { TRIAL_NOTICE_MS } from "../domain/limits.js";
import type { Receipt } from "../domain/model.js";
import { newSubscription } from "../domain/new-subscription.js";
import { presentSubscription } from "../domain/presenters.js";
import { subscriptionEvent } from "../events/domain-event.js";
import type { CreateSubscriptionRequest } from "../validation/schemas.js";
import type { Execution, Outcome } from "./execution.js";

/** What a create learned before it would charge (API.md 5.3 steps 1–2, and its customer, 11.1). */
export interface DescribedMethod {
  readonly description: string;
  readonly methodMask: string;
  readonly receipt: Receipt | null;
  /** This project's customer it bills (checked), or null. */
  readonly customerId: string | null;
}

/**
 * A subscription with a trial (API.md 11.6): its method checked and described, nothing charged.
 * `trialing` with `cyclesStarted` 0; the schedule is anchored at `trialEnd`, where its first cycle
 * (period 0) is due and the renewal worker charges it. `subscription.trial_will_end` comes
 * `TRIAL_NOTICE_MS` before — from the worker, which takes the subscription up then (`nextAttemptAt`)
 * — or with the create for a shorter trial.
 */
export function startTrial(
  execution: Execution,
  input: CreateSubscriptionRequest & { readonly method: NonNullable<CreateSubscriptionRequest["method"]> },
  trialEnd: Date,
  described: DescribedMethod,
): Outcome {
  const { now, project } = execution;
  const noticeAt = new Date(trialEnd.getTime() - TRIAL_NOTICE_MS);
  const noticeNow = noticeAt.getTime() <= now.getTime();
  const subscription = newSubscription({
    id: execution.recordId,
    projectId: project.id,
    amount: input.amount,
    period: input.period,
    method: input.method,
    providerMethodRef: input.providerMethodRef,
    methodMask: described.methodMask,
    description: described.description,
    metadata: input.metadata ?? {},
    receipt: described.receipt,
    customerId: described.customerId,
    invoiceId: null,
    createdAt: now,
    first: { kind: "trial", trialEnd, noticeAt: noticeNow ? trialEnd : noticeAt },
  });
  const events = [subscriptionEvent("subscription.created", subscription, now, execution.ids)];
  if (noticeNow)
    events.push(subscriptionEvent("subscription.trial_will_end", subscription, now, execution.ids));
  return {
    status: 201,
    resource: { kind: "subscription", subscription },
    location: `/v1/subscriptions/${subscription.id}`,
    body: presentSubscription(subscription),
    events,
  };
}
