import type { Subscription } from "../domain/model.js";
import type { IdGenerator } from "../ports/id-generator.js";
import { type DomainEvent, subscriptionEvent } from "./domain-event.js";

/**
 * The events a renewal write carries, from the subscription before and after it: a charged cycle is
 * `renewed`, the first decline of a cycle `past_due` (later retries of the same cycle say nothing new),
 * retries running out `canceled`. A charge that lands on a canceled subscription changes no status.
 */
export function renewalEvents(
  before: Subscription,
  after: Subscription,
  at: Date,
  ids: IdGenerator,
): DomainEvent[] {
  if (before.status === "canceled") return [];
  // A trial's first charge starts the subscription, as an incomplete one's does (API.md 11.6).
  if (after.cyclesStarted > before.cyclesStarted)
    return [
      subscriptionEvent(
        before.status === "trialing" ? "subscription.activated" : "subscription.renewed",
        after,
        at,
        ids,
      ),
    ];
  if (after.status === "past_due" && before.status !== "past_due")
    return [subscriptionEvent("subscription.past_due", after, at, ids)];
  if (after.status === "canceled") return [subscriptionEvent("subscription.canceled", after, at, ids)];
  return [];
}
