import type { Subscription } from "../domain/model.js";
import { subscriptionEvent } from "../events/domain-event.js";
import type { IdGenerator } from "../ports/id-generator.js";
import type { Storage } from "../ports/storage.js";

/**
 * `subscription.trial_will_end` (API.md 11.6), once: the subscription, taken up at its notice time,
 * is saved due at `trialEnd` with the event in the same version-checked write, so a second worker that
 * held it after this one's lease finds it already told. False when it changed meanwhile (a cancel):
 * it comes back when its lease ends, as it is then.
 */
export async function sendTrialNotice(
  storage: Storage,
  subscription: Subscription,
  now: Date,
  ids: IdGenerator,
): Promise<boolean> {
  const told: Subscription = {
    ...subscription,
    nextAttemptAt: subscription.nextChargeAt,
    version: subscription.version + 1,
  };
  const event = subscriptionEvent("subscription.trial_will_end", told, now, ids);
  const saved = await storage.saveSubscription(told, [event], []);
  if (saved.isErr() && saved.error.code !== "conflict") throw saved.error;
  return saved.isOk();
}

/** Whether the renewal worker takes `subscription` up to say its trial will end, not to charge it. */
export function trialNoticeDue(subscription: Subscription, now: Date): boolean {
  return (
    subscription.status === "trialing" &&
    subscription.nextAttemptAt.getTime() < subscription.nextChargeAt.getTime() &&
    subscription.nextAttemptAt.getTime() <= now.getTime()
  );
}
