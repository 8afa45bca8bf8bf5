const UNIT_MS = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;
const DURATION = /^([1-9][0-9]{0,5})([smhd])$/;

/** `90s`, `5m`, `12h`, `3d` in milliseconds; null for anything else (no zero, no fractions, no mix). */
export function parseDuration(text: string): number | null {
  const match = DURATION.exec(text.trim());
  if (match === null) return null;
  return Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS];
}

/**
 * A dunning schedule such as `1d,3d,5d`: offsets from the first declined charge, each later than the
 * one before. Null when an entry is not a duration or the offsets do not increase.
 */
export function parseRetrySchedule(text: string): number[] | null {
  const offsets = text.split(",").map(parseDuration);
  if (offsets.some((offset) => offset === null)) return null;
  const valid = offsets as number[];
  return valid.every((offset, i) => i === 0 || offset > (valid[i - 1] ?? 0)) ? valid : null;
}
