/** Where Kopek reads the time. Injected so every rule that depends on time can be tested. */
export interface Clock {
  /** The current instant. */
  now(): Date;
}

/** The wall clock. */
export const systemClock: Clock = { now: () => new Date() };
