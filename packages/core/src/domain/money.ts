import { AMOUNT_PATTERN } from "./limits.js";
import type { Money } from "./model.js";

/**
 * Whether `value` is an amount as the API accepts it: a string of 1 to 18 digits, no sign, no leading
 * zero. One regex instead of parsing: "0100", "1499.00", " 100" and full-width digits must all fail.
 */
export function isValidAmount(value: unknown): value is string {
  return typeof value === "string" && AMOUNT_PATTERN.test(value);
}

/** The amount as a bigint, or null when it is not a valid amount. */
export function parseAmount(value: string): bigint | null {
  return isValidAmount(value) ? BigInt(value) : null;
}

// ISO 4217 minor units of the currencies in active use; codes are listed in one string per exponent.
function withExponent(exponent: number, codes: string): [string, number][] {
  return codes.split(" ").map((code) => [code, exponent]);
}

/** ISO 4217 minor-unit exponents: how many digits of an amount are after the decimal point. */
export const CURRENCY_EXPONENTS: Readonly<Record<string, number>> = Object.freeze(
  Object.fromEntries([
    ...withExponent(0, "BIF CLP DJF GNF ISK JPY KMF KRW PYG RWF UGX UYI VND VUV XAF XOF XPF"),
    ...withExponent(3, "BHD IQD JOD KWD LYD OMR TND"),
    ...withExponent(4, "CLF UYW"),
    ...withExponent(
      2,
      "AED AMD ARS AUD AZN BDT BGN BRL BYN CAD CHF CNY COP CZK DKK EGP EUR GBP GEL HKD HUF IDR ILS INR " +
        "KES KGS KZT LKR MAD MDL MXN MYR NGN NOK NZD PHP PKR PLN QAR RON RSD RUB SAR SEK SGD THB TJS TRY " +
        "TWD UAH USD UZS ZAR",
    ),
  ]),
);

/** The currency's minor-unit exponent; 2, the most common one, when the currency is not listed. */
export function currencyExponent(currency: string): number {
  return Object.hasOwn(CURRENCY_EXPONENTS, currency) ? (CURRENCY_EXPONENTS[currency] ?? 2) : 2;
}

/** The amount in major units (`"149900"` RUB → `"1499.00"`), by string arithmetic so 18 digits stay exact. */
export function formatAmount(money: Money): string {
  if (!/^[0-9]+$/.test(money.amount)) {
    throw new RangeError(`formatAmount: "${money.amount}" is not a string of digits`);
  }
  const exponent = currencyExponent(money.currency);
  const digits = money.amount.replace(/^0+(?=.)/, "").padStart(exponent + 1, "0");
  if (exponent === 0) return digits;
  const split = digits.length - exponent;
  return `${digits.slice(0, split)}.${digits.slice(split)}`;
}

/** The amount with its currency, as shown to people: `"1499.00 RUB"`. */
export function formatMoney(money: Money): string {
  return `${formatAmount(money)} ${money.currency}`;
}
