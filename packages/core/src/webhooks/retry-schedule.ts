/**
 * When a failed delivery is tried again, counted from the previous attempt: 5 s, 5 min, 30 min, 2 h,
 * 5 h, 10 h, 14 h, 20 h, 24 h — ten attempts over about three days (75.6 h), so a receiver that is down
 * for a weekend still gets every event. After the last one the delivery has failed.
 */
export const DEFAULT_WEBHOOK_RETRY_SCHEDULE_MS: readonly number[] = [
  5_000,
  5 * 60_000,
  30 * 60_000,
  2 * 3_600_000,
  5 * 3_600_000,
  10 * 3_600_000,
  14 * 3_600_000,
  20 * 3_600_000,
  24 * 3_600_000,
];

/** A receiver's Retry-After is honoured up to this long; a larger one cannot stall an event for days. */
export const MAX_RETRY_AFTER_MS = 24 * 3_600_000;
/** ±20 %: receivers that went down together are not hit by every sender in the same second. */
const JITTER = 0.2;

/**
 * The delay before attempt `attempts + 1`, or null when `attempts` used up the schedule. The receiver's
 * Retry-After only ever lengthens the wait: backing off less than the schedule would not help it.
 */
export function nextDelayMs(
  schedule: readonly number[],
  attempts: number,
  random: () => number,
  retryAfterSeconds?: number,
): number | null {
  const base = schedule[attempts - 1];
  if (base === undefined) return null;
  const jittered = Math.round(base * (1 - JITTER + 2 * JITTER * random()));
  if (retryAfterSeconds === undefined || !(retryAfterSeconds > 0)) return jittered;
  return Math.max(jittered, Math.min(retryAfterSeconds * 1000, MAX_RETRY_AFTER_MS));
}
