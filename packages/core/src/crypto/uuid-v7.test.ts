import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Clock } from "../ports/clock.js";
import { createUuidV7Generator, isUuid } from "./uuid-v7.js";

const V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

function fixedClock(iso: string): Clock & { set(iso: string): void } {
  let now = new Date(iso);
  return { now: () => now, set: (next) => (now = new Date(next)) };
}

const timestampOf = (id: string) => Number.parseInt(id.replace(/-/g, "").slice(0, 12), 16);

describe("createUuidV7Generator", () => {
  it("makes lower-case version 7, variant 10 ids carrying the clock's milliseconds", () => {
    const clock = fixedClock("2026-11-22T09:30:00.123Z");
    const id = createUuidV7Generator({ clock }).newId();
    expect(id).toMatch(V7);
    expect(timestampOf(id)).toBe(Date.parse("2026-11-22T09:30:00.123Z"));
  });

  it("makes 100,000 strictly increasing ids from the system clock", () => {
    const generator = createUuidV7Generator();
    let previous = generator.newId();
    for (let i = 0; i < 100_000; i++) {
      const id = generator.newId();
      if (!(id > previous) || !V7.test(id)) expect.fail(`${id} after ${previous}`);
      previous = id;
    }
  });

  it("stays increasing when the clock stands still or steps back, carrying into the timestamp", () => {
    const clock = fixedClock("2026-01-01T00:00:00.000Z");
    const generator = createUuidV7Generator({ clock });
    const ids = Array.from({ length: 10_000 }, () => generator.newId());
    clock.set("2025-12-31T23:59:00.000Z");
    ids.push(generator.newId(), generator.newId());
    expect([...ids].sort()).toEqual(ids);
    // Counter seeds stay below 2048, so the first 2048 ids fit the clock's own millisecond.
    expect(timestampOf(ids[2047] ?? "")).toBe(Date.parse("2026-01-01T00:00:00.000Z"));
    expect(timestampOf(ids.at(-1) ?? "")).toBeGreaterThan(Date.parse("2026-01-01T00:00:00.000Z"));
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("draws random bits in blocks and uses them in rand_b", () => {
    const sizes: number[] = [];
    const generator = createUuidV7Generator({
      clock: fixedClock("2026-01-01T00:00:00.000Z"),
      randomBytes: (size) => {
        sizes.push(size);
        return new Uint8Array(size).fill(0xff);
      },
    });
    const ids = Array.from({ length: 1000 }, () => generator.newId());
    expect(sizes.length).toBeLessThan(5);
    expect(ids[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-77ff-bfff-ffffffffffff$/);
  });

  it("keeps order across random clock readings", () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 2 ** 47 }), { minLength: 2, maxLength: 50 }),
        (times) => {
          let index = 0;
          const generator = createUuidV7Generator({ clock: { now: () => new Date(times[index++] ?? 0) } });
          const ids = times.map(() => generator.newId());
          expect([...ids].sort()).toEqual(ids);
          expect(new Set(ids).size).toBe(ids.length);
          for (const id of ids) expect(id).toMatch(V7);
        },
      ),
    );
  });
});

describe("isUuid", () => {
  it("accepts the canonical form of any version in either case", () => {
    expect(isUuid("0192f3c4-5a6b-7c8d-9e0f-112233445566")).toBe(true);
    expect(isUuid("0192F3C4-5A6B-7C8D-9E0F-112233445566")).toBe(true);
    expect(isUuid("123e4567-e89b-42d3-a456-426614174000")).toBe(true);
    expect(isUuid(createUuidV7Generator().newId())).toBe(true);
  });

  it("rejects other shapes", () => {
    for (const value of [
      "",
      "0192f3c45a6b7c8d9e0f112233445566",
      "{0192f3c4-5a6b-7c8d-9e0f-112233445566}",
      "0192f3c4-5a6b-7c8d-9e0f-11223344556",
      "0192f3c4-5a6b-7c8d-9e0f-11223344556g",
      " 0192f3c4-5a6b-7c8d-9e0f-112233445566",
      "0192f3c4-5a6b-7c8d-9e0f-112233445566\n",
    ]) {
      expect(isUuid(value), value).toBe(false);
    }
  });
});
