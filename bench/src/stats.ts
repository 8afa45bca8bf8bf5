/** The median: the middle value, or the mean of the two middle values. NaN for no values. */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/**
 * The median of per-pair ratios: each pair's two runs ran back to back, so the machine's drift
 * (other tenants, thermal state) mostly cancels inside a pair, and the median drops an outlier pair.
 */
export function medianRatio<T>(
  pairs: readonly { readonly a: T; readonly b: T }[],
  value: (run: T) => number,
): number {
  return median(pairs.map(({ a, b }) => value(a) / value(b)));
}
