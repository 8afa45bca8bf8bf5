/**
 * Runs one operation per key at a time in this process: callers that arrive while it runs share its
 * result. T-Bank has no idempotency header, so parallel requests for one `OrderId` in one process wait
 * for the first instead of racing it to `Init` (across processes, `CheckOrder` and T-Bank's refusal of a
 * second live payment for the order keep them apart; README).
 */
export function createSingleFlight() {
  const running = new Map<string, Promise<unknown>>();
  return function once<T>(key: string, operation: () => Promise<T>): Promise<T> {
    const current = running.get(key);
    if (current !== undefined) return current as Promise<T>;
    const started = operation().finally(() => running.delete(key));
    running.set(key, started);
    return started;
  };
}

/** A map that forgets its oldest entries beyond `limit`, for what is only a shortcut (payment URLs). */
export function createBoundedMap<V>(limit: number) {
  const entries = new Map<string, V>();
  return {
    get: (key: string) => entries.get(key),
    delete: (key: string) => entries.delete(key),
    set(key: string, value: V) {
      entries.delete(key);
      entries.set(key, value);
      if (entries.size > limit) {
        const oldest = entries.keys().next().value;
        if (oldest !== undefined) entries.delete(oldest);
      }
    },
  };
}
