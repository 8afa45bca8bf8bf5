import { readFileSync, statSync } from "node:fs";
import type { Clock } from "@kopek/core";

/** How stale the clock may be: the file is looked at no more often than this. */
const CHECK_INTERVAL_MS = 20;

interface Reading {
  readonly text: string;
  readonly modifiedAt: number;
  readonly instant: number;
}

/**
 * A testing aid (KOPEK_TEST_CLOCK_FILE, NODE_ENV=test only): a clock that reads an ISO 8601 instant
 * from a file and runs on from it at real speed, counted from the file's modification time, so a test
 * jumps time by rewriting the file and every process reading it agrees on the time. The reading is
 * cached and the file looked at again at most every 20 ms; its text is compared too, since two writes
 * within one tick of a coarse file-system clock share a modification time. A file caught half-written
 * keeps the previous time until the next look.
 */
export function createFileClock(path: string, wallClock: () => number = Date.now): Clock {
  let current = read(path); // throws at start: a clock that cannot be read must not start the server
  let checkedAt = wallClock();
  const check = () => {
    const wall = wallClock();
    if (wall - checkedAt < CHECK_INTERVAL_MS) return;
    checkedAt = wall;
    try {
      const next = read(path);
      if (next.text !== current.text || next.modifiedAt !== current.modifiedAt) current = next;
    } catch {
      // Half-written or briefly missing while being replaced: keep the last time, look again later.
    }
  };
  return {
    now() {
      check();
      return new Date(current.instant + (wallClock() - current.modifiedAt));
    },
  };
}

function read(path: string): Reading {
  const modifiedAt = statSync(path).mtimeMs;
  const text = readFileSync(path, "utf8").trim();
  const instant = Date.parse(text);
  if (!/^\d{4}-\d{2}-\d{2}T/.test(text) || Number.isNaN(instant)) {
    throw new Error(`${path} does not hold an ISO 8601 timestamp`);
  }
  return { text, modifiedAt, instant };
}
