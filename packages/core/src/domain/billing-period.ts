import type { Period } from "./model.js";

const MS_PER_DAY = 86_400_000;

import { MAX_PERIOD_COUNT } from "./limits.js";

/** Whether the period is a positive whole number of units no longer than one year. */
export function isPeriodWithinOneYear(period: Period): boolean {
  const max = Object.hasOwn(MAX_PERIOD_COUNT, period.unit) ? MAX_PERIOD_COUNT[period.unit] : 0;
  return Number.isInteger(period.count) && period.count >= 1 && period.count <= max;
}

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31] as const;

function daysInMonth(year: number, month: number): number {
  return month === 1 && isLeapYear(year) ? 29 : (DAYS_IN_MONTH[month] ?? 31);
}

/**
 * The charge date of cycle `cycles`, counted from the anchor rather than from the previous charge, so
 * month-end clamping never drifts: anchored on Jan 31, monthly charges fall on Feb 28, Mar 31, Apr 30.
 * Computed in UTC; the anchor's time of day is kept.
 */
export function addPeriods(anchor: Date, period: Period, cycles: number): Date {
  if (!Number.isSafeInteger(cycles) || cycles < 0) {
    throw new RangeError(`addPeriods: cycles must be a non-negative integer, got ${cycles}`);
  }
  const units = period.count * cycles;
  switch (period.unit) {
    case "day":
      return new Date(anchor.getTime() + units * MS_PER_DAY);
    case "week":
      return new Date(anchor.getTime() + units * 7 * MS_PER_DAY);
    case "month":
      return addCalendarMonths(anchor, units);
    case "year":
      return addCalendarMonths(anchor, units * 12);
  }
}

function addCalendarMonths(anchor: Date, months: number): Date {
  const monthIndex = anchor.getUTCMonth() + months;
  const year = anchor.getUTCFullYear() + Math.floor(monthIndex / 12);
  const month = monthIndex % 12;
  const day = Math.min(anchor.getUTCDate(), daysInMonth(year, month));
  // setUTCFullYear rather than Date.UTC, which would read years 0–99 as 1900–1999.
  const result = new Date(anchor.getTime());
  result.setUTCFullYear(year, month, day);
  return result;
}

/** The period in words, for generated descriptions: "every month", "every 3 days". */
export function describePeriod(period: Period): string {
  return period.count === 1 ? `every ${period.unit}` : `every ${period.count} ${period.unit}s`;
}
