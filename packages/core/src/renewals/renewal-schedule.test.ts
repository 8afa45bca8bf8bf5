import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { addPeriods } from "../domain/billing-period.js";
import type { Period } from "../domain/model.js";
import { DEFAULT_DUNNING_POLICY, latestDueCycle, nextRetryAt } from "./renewal-schedule.js";

const monthly: Period = { unit: "month", count: 1 };
const anchor = new Date("2024-01-31T10:00:00.000Z");

describe("latestDueCycle", () => {
  it("charges the cycle that is due when on time", () => {
    expect(latestDueCycle(anchor, monthly, 1, new Date("2024-02-29T10:00:00.000Z"))).toBe(1);
    expect(latestDueCycle(anchor, monthly, 1, new Date("2024-03-30T23:59:59.999Z"))).toBe(1);
  });

  it("skips to the latest due cycle when several were missed", () => {
    expect(latestDueCycle(anchor, monthly, 1, new Date("2024-03-31T10:00:00.000Z"))).toBe(2);
    expect(latestDueCycle(anchor, monthly, 1, new Date("2024-07-15T00:00:00.000Z"))).toBe(5);
  });

  it("is the largest cycle whose due date has passed, for any period and delay", () => {
    const periods = fc.record({
      unit: fc.constantFrom("day", "week", "month", "year"),
      count: fc.integer({ min: 1, max: 12 }),
    });
    fc.assert(
      fc.property(
        periods,
        fc.integer({ min: 1, max: 40 }),
        fc.integer({ min: 0, max: 5 * 365 * 86_400_000 }),
        (period, due, lateMs) => {
          const p = period as Period;
          const dueAt = addPeriods(anchor, p, due).getTime();
          const now = new Date(dueAt + lateMs);
          const cycle = latestDueCycle(anchor, p, due, now);
          expect(cycle).toBeGreaterThanOrEqual(due);
          expect(addPeriods(anchor, p, cycle).getTime()).toBeLessThanOrEqual(now.getTime());
          expect(addPeriods(anchor, p, cycle + 1).getTime()).toBeGreaterThan(now.getTime());
        },
      ),
    );
  });
});

describe("nextRetryAt", () => {
  it("retries 1, 3 and 5 days after the first decline, then gives up", () => {
    const first = new Date("2026-03-01T00:00:00.000Z");
    const at = (n: number) => nextRetryAt(DEFAULT_DUNNING_POLICY, first, n)?.toISOString() ?? null;
    expect([at(1), at(2), at(3), at(4)]).toEqual([
      "2026-03-02T00:00:00.000Z",
      "2026-03-04T00:00:00.000Z",
      "2026-03-06T00:00:00.000Z",
      null,
    ]);
  });
});
