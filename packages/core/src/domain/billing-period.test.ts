import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { addPeriods, describePeriod, isPeriodWithinOneYear } from "./billing-period.js";
import type { Period } from "./model.js";

const at = (iso: string) => new Date(iso);
const monthly: Period = { unit: "month", count: 1 };
const yearly: Period = { unit: "year", count: 1 };

function daysInUtcMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
}

const anchorArb = fc.date({
  min: new Date("1971-01-01T00:00:00.000Z"),
  max: new Date("2200-12-31T23:59:59.999Z"),
  noInvalidDate: true,
});
const calendarPeriodArb = fc.record({
  unit: fc.constantFrom("month" as const, "year" as const),
  count: fc.integer({ min: 1, max: 12 }),
});

describe("isPeriodWithinOneYear", () => {
  it("allows up to 365 days, 52 weeks, 12 months, 1 year", () => {
    expect(isPeriodWithinOneYear({ unit: "day", count: 365 })).toBe(true);
    expect(isPeriodWithinOneYear({ unit: "day", count: 366 })).toBe(false);
    expect(isPeriodWithinOneYear({ unit: "week", count: 52 })).toBe(true);
    expect(isPeriodWithinOneYear({ unit: "week", count: 53 })).toBe(false);
    expect(isPeriodWithinOneYear({ unit: "month", count: 12 })).toBe(true);
    expect(isPeriodWithinOneYear({ unit: "month", count: 13 })).toBe(false);
    expect(isPeriodWithinOneYear({ unit: "year", count: 1 })).toBe(true);
    expect(isPeriodWithinOneYear({ unit: "year", count: 2 })).toBe(false);
  });

  it("refuses counts below one and fractions", () => {
    expect(isPeriodWithinOneYear({ unit: "day", count: 0 })).toBe(false);
    expect(isPeriodWithinOneYear({ unit: "month", count: -1 })).toBe(false);
    expect(isPeriodWithinOneYear({ unit: "month", count: 1.5 })).toBe(false);
    expect(isPeriodWithinOneYear({ unit: "month", count: Number.NaN })).toBe(false);
  });
});

describe("addPeriods", () => {
  it("clamps to the month end without drifting from the anchor", () => {
    const anchor = at("2025-01-31T09:30:00.000Z");
    expect(addPeriods(anchor, monthly, 0)).toEqual(anchor);
    expect(addPeriods(anchor, monthly, 1)).toEqual(at("2025-02-28T09:30:00.000Z"));
    expect(addPeriods(anchor, monthly, 2)).toEqual(at("2025-03-31T09:30:00.000Z"));
    expect(addPeriods(anchor, monthly, 3)).toEqual(at("2025-04-30T09:30:00.000Z"));
    expect(addPeriods(at("2024-01-31T00:00:00.000Z"), monthly, 1)).toEqual(at("2024-02-29T00:00:00.000Z"));
  });

  it("keeps Feb 29 anchors on Feb 28 in common years and Feb 29 in leap years", () => {
    const anchor = at("2024-02-29T12:00:00.000Z");
    expect(addPeriods(anchor, yearly, 1)).toEqual(at("2025-02-28T12:00:00.000Z"));
    expect(addPeriods(anchor, yearly, 4)).toEqual(at("2028-02-29T12:00:00.000Z"));
    expect(addPeriods(anchor, { unit: "month", count: 12 }, 4)).toEqual(at("2028-02-29T12:00:00.000Z"));
  });

  it("adds exact days and weeks", () => {
    const anchor = at("2025-03-29T23:15:00.000Z");
    expect(addPeriods(anchor, { unit: "day", count: 3 }, 2)).toEqual(at("2025-04-04T23:15:00.000Z"));
    expect(addPeriods(anchor, { unit: "week", count: 2 }, 1)).toEqual(at("2025-04-12T23:15:00.000Z"));
  });

  it("handles 10,000 cycles", () => {
    const anchor = at("2025-01-31T00:00:00.000Z");
    expect(addPeriods(anchor, monthly, 10_000)).toEqual(at("2858-05-31T00:00:00.000Z"));
    expect(addPeriods(anchor, { unit: "day", count: 1 }, 10_000)).toEqual(at("2052-06-18T00:00:00.000Z"));
  });

  it("refuses a negative or fractional cycle count", () => {
    expect(() => addPeriods(at("2025-01-01T00:00:00.000Z"), monthly, -1)).toThrow(RangeError);
    expect(() => addPeriods(at("2025-01-01T00:00:00.000Z"), monthly, 1.5)).toThrow(RangeError);
  });

  it("lands month and year cycles on min(anchor day, days in target month) at the anchor's time", () => {
    fc.assert(
      fc.property(anchorArb, calendarPeriodArb, fc.nat({ max: 2000 }), (anchor, period, cycles) => {
        const result = addPeriods(anchor, period, cycles);
        const months = period.count * cycles * (period.unit === "year" ? 12 : 1);
        const target = anchor.getUTCFullYear() * 12 + anchor.getUTCMonth() + months;
        const year = Math.floor(target / 12);
        const month = target % 12;
        expect(result.getUTCFullYear()).toBe(year);
        expect(result.getUTCMonth()).toBe(month);
        expect(result.getUTCDate()).toBe(Math.min(anchor.getUTCDate(), daysInUtcMonth(year, month)));
        expect(result.getTime() % 86_400_000).toBe(anchor.getTime() % 86_400_000);
      }),
    );
  });

  it("puts every cycle strictly after the previous one", () => {
    const periodArb = fc.record({
      unit: fc.constantFrom("day" as const, "week" as const, "month" as const, "year" as const),
      count: fc.integer({ min: 1, max: 12 }),
    });
    fc.assert(
      fc.property(anchorArb, periodArb, fc.nat({ max: 5000 }), (anchor, period, n) => {
        expect(addPeriods(anchor, period, n + 1).getTime()).toBeGreaterThan(
          addPeriods(anchor, period, n).getTime(),
        );
      }),
    );
  });

  it("adds exactly count × cycles days or weeks", () => {
    const periodArb = fc.record({
      unit: fc.constantFrom("day" as const, "week" as const),
      count: fc.integer({ min: 1, max: 365 }),
    });
    fc.assert(
      fc.property(anchorArb, periodArb, fc.nat({ max: 10_000 }), (anchor, period, cycles) => {
        const days = period.count * cycles * (period.unit === "week" ? 7 : 1);
        expect(addPeriods(anchor, period, cycles).getTime() - anchor.getTime()).toBe(days * 86_400_000);
      }),
    );
  });
});

describe("describePeriod", () => {
  it("reads as English", () => {
    expect(describePeriod({ unit: "day", count: 1 })).toBe("every day");
    expect(describePeriod({ unit: "day", count: 3 })).toBe("every 3 days");
    expect(describePeriod({ unit: "week", count: 1 })).toBe("every week");
    expect(describePeriod({ unit: "week", count: 2 })).toBe("every 2 weeks");
    expect(describePeriod(monthly)).toBe("every month");
    expect(describePeriod({ unit: "month", count: 3 })).toBe("every 3 months");
    expect(describePeriod(yearly)).toBe("every year");
  });
});
