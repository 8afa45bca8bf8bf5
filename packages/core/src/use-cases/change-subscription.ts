import { err, ok, type Result } from "neverthrow";
import type { KopekError } from "../domain/errors.js";
import type { Subscription } from "../domain/model.js";
import { presentSubscription } from "../domain/presenters.js";
import { subscriptionUpdatedEvent } from "../events/domain-event.js";
import type { CancelSubscriptionRequest, UpdateSubscriptionRequest } from "../validation/schemas.js";
import { type Execution, fromStorageError, type Outcome } from "./execution.js";
import { chargeProration } from "./proration.js";
import {
  type ChangedSubscription,
  changeSubscription,
  type SubscriptionChange,
} from "./subscription-changes.js";
import { planUpdate } from "./subscription-update.js";

/**
 * POST /v1/subscriptions/{id}/cancel (API.md 6, 11.2): without `at`, or `at: now`, it ends now; with
 * `at: period_end`, when its paid period does. Canceling a canceled one is `invalid_state` (the same
 * key replays the first answer).
 */
export function cancelSubscription(
  execution: Execution,
  input: CancelSubscriptionRequest,
  id: string,
): Promise<Result<Outcome, KopekError>> {
  return changed(execution, id, { kind: "cancel", at: input.at ?? "now" });
}

/**
 * POST /v1/subscriptions/{id}/pause (API.md 11.4): paused from the end of the paid period (`pauseAt` =
 * `nextChargeAt`); until then it stays active. Asked again, nothing changes.
 */
export function pauseSubscription(
  execution: Execution,
  _input: unknown,
  id: string,
): Promise<Result<Outcome, KopekError>> {
  return changed(execution, id, { kind: "pause" });
}

/**
 * POST /v1/subscriptions/{id} (API.md 11.2, 11.3): changes a subscription's amount, period,
 * description, metadata, receipt or cancel at period end (`planUpdate`); with `proration: charge_now`,
 * the prorated difference is charged first (`chargeProration`) and the change stored only with its
 * succeeded Payment. 200 with the subscription as changed, with `subscription.updated`.
 */
export async function updateSubscription(
  execution: Execution,
  input: UpdateSubscriptionRequest,
  id: string,
): Promise<Result<Outcome, KopekError>> {
  const found = await execution.storage.findSubscription(execution.project.id, id);
  if (found.isErr()) return err(fromStorageError(found.error));
  const current = found.value;
  if (current === null) return err({ code: "not_found" });
  const planned = planUpdate(current, input, execution.now, execution.provider);
  if (planned.isErr()) return err(planned.error);
  const { subscription, prorate } = planned.value;
  if (prorate !== null) return chargeProration(execution, current, subscription, prorate);
  return ok(
    outcomeOf(current, {
      subscription,
      events:
        subscription === current
          ? []
          : [subscriptionUpdatedEvent(current, subscription, execution.now, execution.ids)],
    }),
  );
}

/**
 * 200 with the subscription as changed, stored with its events; when nothing changed, nothing is
 * written and no event is sent.
 */
async function changed(
  execution: Execution,
  id: string,
  change: SubscriptionChange,
): Promise<Result<Outcome, KopekError>> {
  const found = await execution.storage.findSubscription(execution.project.id, id);
  if (found.isErr()) return err(fromStorageError(found.error));
  const current = found.value;
  if (current === null) return err({ code: "not_found" });
  return changeSubscription(current, change, execution.now, execution.ids).map((changed) =>
    outcomeOf(current, changed),
  );
}

/** 200 with the subscription as changed, stored with its events; nothing written when it did not change. */
export function outcomeOf(current: Subscription, changed: ChangedSubscription): Outcome {
  const { subscription, events } = changed;
  return {
    status: 200,
    resource: subscription === current ? null : { kind: "subscription", subscription },
    body: presentSubscription(subscription),
    events,
  };
}
