import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { addPeriods } from "./billing-period.js";
import { proratedDifference } from "./proration.js";

const DAY = 86_400_000;
const amount = fc.bigInt({ min: 1n, max: 10n ** 18n - 1n }).map(String);
// Any moment of 2000–2100, to the millisecond.
const moment = fc.integer({ min: Date.UTC(2000, 0, 1), max: Date.UTC(2100, 0, 1) }).map((ms) => new Date(ms));

describe("proratedDifference (API.md 11.3)", () => {
  it("charges a third of a 300.00 raise with 10 of 30 days left", () => {
    const periodStart = new Date("2026-11-01T00:00:00Z");
    const periodEnd = new Date("2026-12-01T00:00:00Z");
    const now = new Date(periodEnd.getTime() - 10 * DAY);
    expect(
      proratedDifference({ oldAmount: "100000", newAmount: "130000", periodStart, periodEnd, now }),
    ).toBe(10000n);
  });

  it("rounds down on whole seconds: a raise of 1 kopeck charges nothing before the last second of the cycle", () => {
    const periodStart = new Date("2026-02-01T00:00:00Z");
    const periodEnd = new Date("2026-03-01T00:00:00Z");
    expect(
      proratedDifference({
        oldAmount: "100",
        newAmount: "101",
        periodStart,
        periodEnd,
        now: new Date(periodStart.getTime() + 999),
      }),
    ).toBe(0n);
    expect(
      proratedDifference({ oldAmount: "100", newAmount: "101", periodStart, periodEnd, now: periodStart }),
    ).toBe(1n);
  });

  it("is never more than the difference, never negative, and 0 for a decrease or no change", () => {
    fc.assert(
      fc.property(
        amount,
        amount,
        moment,
        fc.integer({ min: 1, max: 400 * DAY }),
        fc.double({ min: -0.2, max: 1.2, noNaN: true }),
        (a, b, start, length, at) => {
          const periodEnd = new Date(start.getTime() + length);
          const now = new Date(start.getTime() + Math.floor(length * at));
          const charged = proratedDifference({
            oldAmount: a,
            newAmount: b,
            periodStart: start,
            periodEnd,
            now,
          });
          const raise = BigInt(b) - BigInt(a);
          expect(charged >= 0n).toBe(true);
          if (raise <= 0n) expect(charged).toBe(0n);
          else expect(charged <= raise).toBe(true);
        },
      ),
    );
  });

  it("over a month of 28 to 31 days is exactly floor(raise × remaining s ÷ month s), growing as less time has passed", () => {
    fc.assert(
      fc.property(
        amount,
        fc.bigInt({ min: 1n, max: 10n ** 12n }),
        moment,
        fc.nat(),
        (old, raise, start, offset) => {
          const periodEnd = addPeriods(start, { unit: "month", count: 1 }, 1);
          const seconds = Math.floor((periodEnd.getTime() - start.getTime()) / 1000);
          expect(seconds / 86_400).toBeGreaterThanOrEqual(28);
          expect(seconds / 86_400).toBeLessThanOrEqual(31);
          const newAmount = String(BigInt(old) + raise);
          const passed = offset % (seconds + 1);
          const now = new Date(start.getTime() + passed * 1000);
          const charged = proratedDifference({
            oldAmount: old,
            newAmount,
            periodStart: start,
            periodEnd,
            now,
          });
          const remaining = Math.floor((periodEnd.getTime() - now.getTime()) / 1000);
          expect(charged).toBe((raise * BigInt(remaining)) / BigInt(seconds));
          const later = new Date(now.getTime() + 1000);
          expect(
            proratedDifference({ oldAmount: old, newAmount, periodStart: start, periodEnd, now: later }) <=
              charged,
          ).toBe(true);
        },
      ),
    );
  });
});
