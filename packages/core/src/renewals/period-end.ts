import type { Subscription } from "../domain/model.js";
import { subscriptionEvent } from "../events/domain-event.js";
import type { IdGenerator } from "../ports/id-generator.js";
import type { Storage } from "../ports/storage.js";

/**
 * Whether the renewal due now ends the subscription instead (API.md 11.2): a cancel at period end
 * asked for this moment or earlier. Nothing is charged then — also when the worker was down at that
 * moment and comes to it later.
 */
export function endsAtPeriodEnd(subscription: Subscription, now: Date): boolean {
  return subscription.cancelAt !== null && subscription.cancelAt.getTime() <= now.getTime();
}

/** Whether the renewal due now pauses the subscription instead (API.md 11.4), as `endsAtPeriodEnd`. */
export function pausesAtPeriodEnd(subscription: Subscription, now: Date): boolean {
  return subscription.pauseAt !== null && subscription.pauseAt.getTime() <= now.getTime();
}

/**
 * Pauses a subscription whose paid period ended with a pause asked: `paused`, nothing charged, with
 * `subscription.paused`; `pauseAt` stays. False when it changed meanwhile, as `endAtPeriodEnd`.
 */
export async function pauseAtPeriodEnd(
  storage: Storage,
  subscription: Subscription,
  now: Date,
  ids: IdGenerator,
): Promise<boolean> {
  const paused: Subscription = { ...subscription, status: "paused", version: subscription.version + 1 };
  const event = subscriptionEvent("subscription.paused", paused, now, ids);
  const saved = await storage.saveSubscription(paused, [event], []);
  if (saved.isErr() && saved.error.code !== "conflict") throw saved.error;
  return saved.isOk();
}

/**
 * Cancels a subscription whose paid period ended with a cancel at period end: `canceled` at
 * `cancelAt`, `cancelReason: requested`, with `subscription.canceled`. False when it changed meanwhile
 * (the cancel undone, or canceled now): it keeps its lease and comes back when that ends, as it is then.
 */
export async function endAtPeriodEnd(
  storage: Storage,
  subscription: Subscription,
  now: Date,
  ids: IdGenerator,
): Promise<boolean> {
  const canceled: Subscription = {
    ...subscription,
    status: "canceled",
    canceledAt: subscription.cancelAt,
    cancelReason: "requested",
    version: subscription.version + 1,
  };
  const event = subscriptionEvent("subscription.canceled", canceled, now, ids);
  const saved = await storage.saveSubscription(canceled, [event], []);
  if (saved.isErr() && saved.error.code !== "conflict") throw saved.error;
  return saved.isOk();
}
