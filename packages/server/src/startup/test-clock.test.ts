import { mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { createFileClock } from "./test-clock.js";

const dir = mkdtempSync(join(tmpdir(), "kopek-clock-"));
const file = join(dir, "clock");
afterEach(() => rmSync(file, { force: true }));

/** Writes the file with a given modification time (ms), as a test rewriting it at that moment would. */
function write(text: string, modifiedAtMs: number) {
  writeFileSync(file, text);
  utimesSync(file, modifiedAtMs / 1000, modifiedAtMs / 1000);
}

describe("createFileClock", () => {
  test("reads the instant in the file and runs on from its modification time", () => {
    let wall = 1_000_000;
    write("2027-01-31T10:00:00.000Z\n", wall);
    const clock = createFileClock(file, () => wall);
    expect(clock.now().toISOString()).toBe("2027-01-31T10:00:00.000Z");
    wall += 1500;
    expect(clock.now().toISOString()).toBe("2027-01-31T10:00:01.500Z");
  });

  test("a rewritten file moves the clock, seen within 20 ms", () => {
    let wall = 2_000_000;
    write("2027-01-31T10:00:00.000Z", wall);
    const clock = createFileClock(file, () => wall);
    clock.now();
    write("2027-02-28T10:00:00.000Z", wall);
    wall += 5;
    expect(clock.now().toISOString()).toBe("2027-01-31T10:00:00.005Z"); // not looked at yet
    wall += 20;
    expect(clock.now().toISOString()).toBe("2027-02-28T10:00:00.025Z");
  });

  test("a file caught half-written keeps the last time", () => {
    let wall = 3_000_000;
    write("2027-01-31T10:00:00.000Z", wall);
    const clock = createFileClock(file, () => wall);
    write("", wall + 1);
    wall += 100;
    expect(clock.now().toISOString()).toBe("2027-01-31T10:00:00.100Z");
  });

  test("refuses a file without an ISO 8601 timestamp at start", () => {
    write("tomorrow", 0);
    expect(() => createFileClock(file)).toThrow("does not hold an ISO 8601 timestamp");
    expect(() => createFileClock(join(dir, "missing"))).toThrow(/ENOENT/);
  });
});
