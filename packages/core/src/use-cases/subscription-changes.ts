import { err, ok, type Result } from "neverthrow";
import type { KopekError } from "../domain/errors.js";
import type { Subscription } from "../domain/model.js";
import { type DomainEvent, subscriptionEvent, subscriptionUpdatedEvent } from "../events/domain-event.js";
import type { IdGenerator } from "../ports/id-generator.js";

/** What an API call or an operator asks of a subscription (API.md 6, 11.2, 11.3, 11.4). */
export type SubscriptionChange =
  | { readonly kind: "cancel"; readonly at: "now" | "period_end" }
  | { readonly kind: "update"; readonly cancelAtPeriodEnd?: boolean | undefined }
  /** A pause at the end of the paid period (11.4). */
  | { readonly kind: "pause" }
  /** A pause asked and not yet in effect, undone (a paused one is resumed by `resumeSubscription`). */
  | { readonly kind: "unpause" };

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
    // Ends now (a paused one too), and a cancel or pause at period end it had is void.
    const subscription: Subscription = {
      ...current,
      status: "canceled",
      canceledAt: now,
      cancelReason: "requested",
      cancelAt: null,
      pauseAt: null,
      version: current.version + 1,
    };
    return ok({ subscription, events: [subscriptionEvent("subscription.canceled", subscription, now, ids)] });
  }
  if (change.kind === "pause" || change.kind === "unpause")
    return withPauseAtPeriodEnd(current, change.kind === "pause", now).map((subscription) => ({
      subscription,
      events: subscription === current ? [] : [subscriptionUpdatedEvent(current, subscription, now, ids)],
    }));
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
  if (current.pauseAt !== null || current.status === "paused")
    return err({
      code: "invalid_state",
      detail: "the subscription is paused or pauses at period end: resume it first, or cancel it now",
    });
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
    return err(renewing(current, "cancel it now, or at period end once the renewal has settled"));
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

/**
 * A subscription with a pause at the end of its paid period asked (`true`) or undone before it took
 * effect (`false`), API.md 11.4; the very same object when that is already so. Only an active one
 * whose renewal is not under way pauses (`pauseAt` = `nextChargeAt`), and not one canceled at period
 * end; a paused one is resumed by `resumeSubscription`, not here.
 */
export function withPauseAtPeriodEnd(
  current: Subscription,
  wanted: boolean,
  now: Date,
): Result<Subscription, KopekError> {
  if (current.status === "canceled")
    return err({ code: "invalid_state", detail: "the subscription is already canceled" });
  if (current.status === "paused" || (wanted && current.pauseAt !== null)) return ok(current);
  if (!wanted) {
    if (current.pauseAt === null)
      return err({ code: "invalid_state", detail: `the subscription is ${current.status}, not paused` });
    return ok({ ...current, pauseAt: null, version: current.version + 1 });
  }
  if (current.status !== "active")
    return err({
      code: "invalid_state",
      detail: `only an active subscription pauses at the end of its paid period; this one is ${current.status}`,
    });
  if (current.cancelAt !== null)
    return err({
      code: "invalid_state",
      detail: "the subscription is canceled at period end: undo that first (cancelAtPeriodEnd false)",
    });
  if (renewalUnderWay(current, now)) return err(renewing(current, "pause it once the renewal has settled"));
  return ok({ ...current, pauseAt: current.nextChargeAt, version: current.version + 1 });
}

/** The refusal of a change while the renewal due at `nextChargeAt` is under way; `instead` says what to do. */
export function renewing(current: Subscription, instead: string): KopekError {
  return {
    code: "invalid_state",
    detail: `the period ended at ${current.nextChargeAt.toISOString()} and its renewal is under way: ${instead}`,
  };
}
