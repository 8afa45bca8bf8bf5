import type { Clock } from "@kopek/core";

/** A clock a test moves by hand. */
export interface ManualClock extends Clock {
  advance(ms: number): void;
}

export function manualClock(start = new Date("2026-01-31T10:00:00.000Z")): ManualClock {
  let now = start.getTime();
  return {
    now: () => new Date(now),
    advance: (ms) => {
      now += ms;
    },
  };
}
