import { addPeriods } from "../domain/billing-period.js";
import type { Period } from "../domain/model.js";

const DAY_MS = 86_400_000;

/** When failed renewals are retried (API.md 5.3 statuses, issue 6 dunning). */
export interface DunningPolicy {
  /**
   * Offsets from the first declined charge of a cycle at which it is tried again; after the last one
   * fails the subscription is canceled. Default: 1, 3 and 5 days.
   */
  readonly retryOffsetsMs: readonly number[];
  /** Delay before trying again after a provider outage, which never counts as a decline. */
  readonly outageRetryMs: number;
}

export const DEFAULT_DUNNING_POLICY: DunningPolicy = {
  retryOffsetsMs: [1 * DAY_MS, 3 * DAY_MS, 5 * DAY_MS],
  outageRetryMs: 5 * 60_000,
};

/**
 * The cycle a renewal charges: the latest whose due date has passed, starting from `dueCycle`. A
 * subscription that fell several cycles behind (the service was down for days) is charged once, for
 * the current cycle; the missed ones are skipped, never charged in a burst.
 */
export function latestDueCycle(anchor: Date, period: Period, dueCycle: number, now: Date): number {
  const at = now.getTime();
  if (addPeriods(anchor, period, dueCycle + 1).getTime() > at) return dueCycle;
  // Gallop then bisect: a daily subscription ten years behind takes ~25 date computations, not 3,650.
  let low = dueCycle + 1;
  let step = 1;
  while (addPeriods(anchor, period, low + step).getTime() <= at) {
    low += step;
    step *= 2;
  }
  let high = low + step;
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2);
    if (addPeriods(anchor, period, middle).getTime() <= at) low = middle;
    else high = middle;
  }
  return low;
}

/** When to try a declined cycle again, or null when retries are exhausted. */
export function nextRetryAt(policy: DunningPolicy, firstDeclinedAt: Date, declines: number): Date | null {
  const offset = policy.retryOffsetsMs[declines - 1];
  return offset === undefined ? null : new Date(firstDeclinedAt.getTime() + offset);
}
