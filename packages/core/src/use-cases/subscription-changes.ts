import { err, ok, type Result } from "neverthrow";
import type { KopekError } from "../domain/errors.js";
import type { Subscription } from "../domain/model.js";
import { type DomainEvent, subscriptionEvent, subscriptionUpdatedEvent } from "../events/domain-event.js";
import type { IdGenerator } from "../ports/id-generator.js";

/** What an API call or an operator asks of a subscription (API.md 6, 11.2, 11.3). */
export type SubscriptionChange =
  | { readonly kind: "cancel"; readonly at: "now" | "period_end" }
  | { readonly kind: "update"; readonly cancelAtPeriodEnd?: boolean | undefined };

/** A change applied: the subscription to store and the events it causes; none when nothing changed. */
export interface ChangedSubscription {
  /** The very object given when nothing changed: nothing is written then. */
  readonly subscription: Subscription;
  readonly events: readonly DomainEvent[];
}

/** Applies `change` to the stored `current` at `now`, or says why it cannot be made. */
export function changeSubscription(
  current: Subscription,
  change: SubscriptionChange,
  now: Date,
  ids: IdGenerator,
): Result<ChangedSubscription, KopekError> {
  if (change.kind === "cancel" && change.at === "now") {
    if (current.status === "canceled")
      return err({ code: "invalid_state", detail: "the subscription is already canceled" });
    // Ends now, and a cancel at period end it had is void.
    const subscription: Subscription = {
      ...current,
      status: "canceled",
      canceledAt: now,
      cancelReason: "requested",
      cancelAt: null,
      version: current.version + 1,
    };
    return ok({ subscription, events: [subscriptionEvent("subscription.canceled", subscription, now, ids)] });
  }
  const wanted = change.kind === "cancel" ? true : (change.cancelAtPeriodEnd ?? current.cancelAt !== null);
  return withCancelAtPeriodEnd(current, wanted, now).map((subscription) => ({
    subscription,
    events: subscription === current ? [] : [subscriptionUpdatedEvent(current, subscription, now, ids)],
  }));
}

/**
 * A subscription with a cancel at the end of its paid period asked (`true`) or undone (`false`),
 * API.md 11.2; the very same object when that is already so (nothing to write). The cancel takes
 * effect at `nextChargeAt`, the end of the period paid for, so only a subscription whose current
 * period is paid and not yet over can get one: not a past-due one (its period is unpaid), not an
 * incomplete one (no period paid yet), and not while the renewal due at `nextChargeAt` is under way
 * (its time has come, or a worker recorded its attempt: a worker's clock may run ahead of this one's).
 */
export function withCancelAtPeriodEnd(
  current: Subscription,
  wanted: boolean,
  now: Date,
): Result<Subscription, KopekError> {
  if (current.status === "canceled")
    return err({ code: "invalid_state", detail: "the subscription is already canceled" });
  if (!wanted) {
    if (current.cancelAt === null) return ok(current);
    if (current.cancelAt.getTime() <= now.getTime())
      return err({
        code: "invalid_state",
        detail: `the paid period ended at ${current.cancelAt.toISOString()}: the cancel has taken effect`,
      });
    return ok({ ...current, cancelAt: null, version: current.version + 1 });
  }
  if (current.cancelAt !== null) return ok(current);
  if (current.status === "past_due")
    return err({
      code: "invalid_state",
      detail: "the subscription is past due: its period is unpaid, so it can only be canceled now",
    });
  if (current.status === "incomplete")
    return err({
      code: "invalid_state",
      detail: "the first charge is not settled yet: there is no paid period to end; cancel it now",
    });
  if (renewalUnderWay(current, now))
    return err({
      code: "invalid_state",
      detail:
        `the period ended at ${current.nextChargeAt.toISOString()} and its renewal is under way: ` +
        "cancel it now, or at period end once the renewal has settled",
    });
  return ok({ ...current, cancelAt: current.nextChargeAt, version: current.version + 1 });
}

/**
 * Whether the renewal due at `nextChargeAt` is under way: its time has come, or a worker recorded its
 * attempt (a worker's clock may run ahead of this one's). A recorded attempt moves `nextAttemptAt` off
 * `nextChargeAt` (renewal-worker.ts) until it settles: its charge may already be made, with the
 * subscription as it was. (A trial's notice time comes before `nextChargeAt`: no attempt then.)
 */
export function renewalUnderWay(current: Subscription, now: Date): boolean {
  return (
    current.nextAttemptAt.getTime() > current.nextChargeAt.getTime() ||
    current.nextChargeAt.getTime() <= now.getTime()
  );
}
