import { err, type Result } from "neverthrow";
import type { KopekError } from "../domain/errors.js";
import { presentSubscription } from "../domain/presenters.js";
import type { CancelSubscriptionRequest, UpdateSubscriptionRequest } from "../validation/schemas.js";
import { type Execution, fromStorageError, type Outcome } from "./execution.js";
import { changeSubscription, type SubscriptionChange } from "./subscription-changes.js";

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
 * POST /v1/subscriptions/{id} (API.md 11.3): changes a subscription. Today: `cancelAtPeriodEnd`, a
 * cancel at the end of the paid period asked (`true`) or undone (`false`).
 */
export function updateSubscription(
  execution: Execution,
  input: UpdateSubscriptionRequest,
  id: string,
): Promise<Result<Outcome, KopekError>> {
  return changed(execution, id, { kind: "update", cancelAtPeriodEnd: input.cancelAtPeriodEnd });
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
  return changeSubscription(current, change, execution.now, execution.ids).map(
    ({ subscription, events }): Outcome => ({
      status: 200,
      resource: subscription === current ? null : { kind: "subscription", subscription },
      body: presentSubscription(subscription),
      events,
    }),
  );
}
