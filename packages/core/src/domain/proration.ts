/**
 * The prorated difference of a price raised mid-cycle (API.md 11.3): `(new − old) × remaining ÷ cycle
 * length`, on whole seconds, rounded down to a minor unit. Never more than the difference (remaining is
 * at most the cycle), 0 for a decrease, an unchanged price, or a cycle already over. Amounts are whole
 * minor units as strings; the answer is a bigint of them.
 */
export function proratedDifference(change: {
  readonly oldAmount: string;
  readonly newAmount: string;
  readonly periodStart: Date;
  readonly periodEnd: Date;
  readonly now: Date;
}): bigint {
  const increase = BigInt(change.newAmount) - BigInt(change.oldAmount);
  const end = change.periodEnd.getTime();
  const lengthMs = end - change.periodStart.getTime();
  const length = wholeSeconds(lengthMs);
  // A moment before the cycle began counts as its start.
  const remaining = wholeSeconds(Math.min(end - change.now.getTime(), lengthMs));
  if (increase <= 0n || length <= 0n || remaining <= 0n) return 0n;
  return (increase * remaining) / length;
}

const wholeSeconds = (ms: number): bigint => BigInt(Math.floor(ms / 1000));
