import { currencyExponent, formatAmount, isValidAmount, type Money } from "@kopek/core";

/** A YooKassa amount: major units as a decimal string with a point (`"1499.00"`), and the currency. */
export interface YooKassaAmount {
  readonly value: string;
  readonly currency: string;
}

/**
 * Kopek's minor units to YooKassa's major units (`"149900"` RUB → `"1499.00"`). Core's `formatAmount`
 * does the string arithmetic, so the two can never disagree; no float ever sees the amount.
 */
export function toYooKassaAmount(money: Money): YooKassaAmount {
  return { value: formatAmount(money), currency: money.currency };
}

/**
 * YooKassa's major units back to Kopek's minor units (`"1499.00"` → `"149900"`), or null when the value
 * is not a plain decimal with at most the currency's number of fraction digits. String arithmetic only.
 */
export function fromYooKassaAmount(amount: YooKassaAmount): Money | null {
  const match = /^([0-9]+)(?:\.([0-9]+))?$/.exec(amount.value);
  if (match === null) return null;
  const exponent = currencyExponent(amount.currency);
  const whole = match[1] ?? "";
  const fraction = match[2] ?? "";
  if (fraction.length > exponent) return null;
  const minor = `${whole}${fraction.padEnd(exponent, "0")}`.replace(/^0+(?=.)/, "");
  return isValidAmount(minor) || minor === "0" ? { amount: minor, currency: amount.currency } : null;
}
