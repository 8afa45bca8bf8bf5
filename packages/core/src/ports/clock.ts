/** Where Kopek reads the time. Injected so every rule that depends on time can be tested. */
export interface Clock {
  /**
   * The current instant, as a new Date on every call: Kopek keeps the instants it is given (memory
   * storage stores a new invoice's `createdAt` as it is), so one must never change afterwards.
   */
  now(): Date;
}

/** The wall clock. */
export const systemClock: Clock = { now: () => new Date() };

/**
 * The clock's instant in epoch milliseconds, as a function. For the wall clock it is `Date.now`, which
 * allocates nothing: ids and key lookups read the time on every request.
 */
export function millisecondsOf(clock: Clock): () => number {
  return clock === systemClock ? Date.now : () => clock.now().getTime();
}
