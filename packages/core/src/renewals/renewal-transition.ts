import { addPeriods } from "../domain/billing-period.js";
import type { Subscription } from "../domain/model.js";
import { type DunningPolicy, latestDueCycle, nextRetryAt } from "./renewal-schedule.js";

/** What the provider said to one renewal charge. */
export type ChargeResult =
  | { readonly kind: "charged"; readonly at: Date }
  | { readonly kind: "declined"; readonly at: Date }
  /** Not decided yet at the provider: asked about again later, never charged again meanwhile. */
  | { readonly kind: "pending"; readonly at: Date }
  /** An outage or a malformed answer: not the payer's fault, never counted as a decline. */
  | { readonly kind: "unavailable"; readonly at: Date };

/*
 * Two numberings meet here, and only here. What people read counts a subscription's cycles from 1,
 * the first charge (API.md 10.2): `Payment.cycle`, the renewal worker's `RenewalEvent.cycle` (and so
 * the server's log), the docs. The schedule counts periods from the anchor: period p is due at
 * anchor + p periods (`Subscription.nextCycle`, stored so, and the `cycle` argument of the functions
 * below), so cycle n is period n − 1. Convert with these two, never with a bare ± 1.
 */

/** The schedule's period of a cycle (1 = the first charge, period 0). */
export const periodOfCycle = (cycle: number): number => cycle - 1;

/** The cycle (1 = the first charge) of a schedule's period. */
export const cycleOfPeriod = (period: number): number => period + 1;

/** When period `period` of `subscription`'s schedule is due (see `Subscription.anchorAt`). */
export function periodDueAt(subscription: Subscription, period: number): Date {
  return addPeriods(subscription.anchorAt, subscription.period, period - subscription.anchorPeriod);
}

/** The latest period of `subscription` due by `now`, from `period` on (`latestDueCycle` on its anchor). */
function latestDuePeriod(subscription: Subscription, period: number, now: Date): number {
  const { anchorAt, anchorPeriod } = subscription;
  return latestDueCycle(anchorAt, subscription.period, period - anchorPeriod, now) + anchorPeriod;
}

/** The period (see above) a renewal of `subscription` charges at `now`. */
export function cycleToCharge(subscription: Subscription, now: Date): number {
  // A past-due subscription retries the cycle that failed, and a trial's first charge is its first
  // cycle however late it comes; an active one catches up to the latest due.
  return subscription.status === "past_due" || subscription.status === "trialing"
    ? subscription.nextCycle
    : latestDuePeriod(subscription, subscription.nextCycle, now);
}

/**
 * The provider idempotency key of a renewal attempt of `cycle` (1 = the first charge): one per cycle
 * and decline count. A retry after an outage reuses it (the charge may have gone through; the
 * provider answers with the first one); a retry after a decline needs a new one, since a provider
 * replays a remembered decline.
 *
 * Its number is the cycle's *period* (cycle − 1), as every key sent so far was written: a renewal
 * recorded pending by an older Kopek and sent again after an upgrade must send the very same key, or
 * the provider would charge it a second time. So the key's text never changes; only what people read
 * counts from 1 (docs/api.md, "Cycle numbers").
 */
export function renewalChargeKey(subscription: Subscription, cycle: number): string {
  return `kopek:renewal:${subscription.id}:${periodOfCycle(cycle)}:${subscription.declines}`;
}

/** The subscription after a renewal attempt of period `cycle`; `version` is bumped for a checked write. */
export function applyChargeResult(
  subscription: Subscription,
  cycle: number,
  result: ChargeResult,
  policy: DunningPolicy,
): Subscription {
  const base = { ...subscription, version: subscription.version + 1 };
  if (result.kind === "unavailable" || result.kind === "pending") {
    return { ...base, nextAttemptAt: new Date(result.at.getTime() + policy.outageRetryMs) };
  }
  if (result.kind === "charged") {
    const charged = { ...base, cyclesStarted: subscription.cyclesStarted + 1, lastChargedAt: result.at };
    // Canceled while the charge was in flight: the money moved, so it is recorded, but nothing resumes.
    if (subscription.status === "canceled") return charged;
    const nextCycle = latestDuePeriod(subscription, cycle, result.at) + 1;
    const nextChargeAt = periodDueAt(subscription, nextCycle);
    return {
      ...charged,
      status: "active",
      nextCycle,
      nextChargeAt,
      nextAttemptAt: nextChargeAt,
      declines: 0,
      firstDeclinedAt: null,
    };
  }
  if (subscription.status === "canceled") return base;
  const declines = subscription.declines + 1;
  const firstDeclinedAt = subscription.firstDeclinedAt ?? result.at;
  const retryAt = nextRetryAt(policy, firstDeclinedAt, declines);
  const unpaid = {
    ...base,
    nextCycle: cycle,
    nextChargeAt: periodDueAt(subscription, cycle),
    declines,
    firstDeclinedAt,
  };
  return retryAt === null
    ? { ...unpaid, status: "canceled", canceledAt: result.at, cancelReason: "payment_failed" }
    : { ...unpaid, status: "past_due", nextAttemptAt: retryAt };
}
