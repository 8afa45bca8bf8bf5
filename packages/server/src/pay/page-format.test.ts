import { CURRENCY_EXPONENTS, currencyExponent, MAX_AMOUNT, type Money } from "@kopek/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatPageMoney, formatPageTime } from "./page-format.js";
import type { PageLanguage } from "./page-language.js";

const NBSP = "\u00a0";

/** Reads a formatted amount back into minor units, as a payer's eye would: digits only, the decimal marker placed by the exponent. */
function minorUnitsOf(text: string, language: PageLanguage, currency: string): string {
  const decimal = language === "ru" ? "," : ".";
  const number = text.replace(/[^0-9,.]/g, "");
  const [integer = "", fraction = ""] = number.split(decimal);
  expect(fraction).toHaveLength(currencyExponent(currency));
  return `${integer.replace(/[^0-9]/g, "")}${fraction}`.replace(/^0+(?=.)/, "");
}

const amount = fc.bigInt({ min: 1n, max: MAX_AMOUNT }).map(String);
const language = fc.constantFrom<PageLanguage>("ru", "en");
const currency = fc.constantFrom(
  "RUB",
  "USD",
  "EUR",
  "JPY",
  "KWD",
  "CLF",
  "XTS",
  ...Object.keys(CURRENCY_EXPONENTS),
);

describe("formatPageMoney", () => {
  it("writes roubles as Russian and English payers read them", () => {
    const rub = (value: string): Money => ({ amount: value, currency: "RUB" });
    expect(formatPageMoney("ru", rub("149900"))).toBe(`1${NBSP}499,00${NBSP}₽`);
    expect(formatPageMoney("en", rub("149900"))).toBe(`RUB${NBSP}1,499.00`);
    expect(formatPageMoney("ru", rub("1"))).toBe(`0,01${NBSP}₽`);
    expect(formatPageMoney("ru", rub("99999"))).toBe(`999,99${NBSP}₽`);
    expect(formatPageMoney("ru", rub("999999999999999999"))).toBe(
      `9${NBSP}999${NBSP}999${NBSP}999${NBSP}999${NBSP}999,99${NBSP}₽`,
    );
    expect(formatPageMoney("en", rub("999999999999999999"))).toBe(`RUB${NBSP}9,999,999,999,999,999.99`);
  });

  it("shows other currencies by their code, with their own minor units", () => {
    expect(formatPageMoney("ru", { amount: "250000", currency: "USD" })).toBe(`2${NBSP}500,00${NBSP}USD`);
    expect(formatPageMoney("en", { amount: "250000", currency: "EUR" })).toBe(`EUR${NBSP}2,500.00`);
    expect(formatPageMoney("ru", { amount: "1500", currency: "JPY" })).toBe(`1${NBSP}500${NBSP}JPY`);
    expect(formatPageMoney("en", { amount: "1500", currency: "KWD" })).toBe(`KWD${NBSP}1.500`);
  });

  it("separates groups with what Node's Intl.NumberFormat('ru-RU') uses, which HTML renders as a space", () => {
    const group = new Intl.NumberFormat("ru-RU").formatToParts(1234).find((p) => p.type === "group")?.value;
    expect(group).toBe(NBSP);
    expect(formatPageMoney("ru", { amount: "123456789", currency: "RUB" })).toContain(
      `1${group}234${group}567,89`,
    );
  });

  it("gives back the exact minor units for every valid amount, in both languages and any currency", () => {
    fc.assert(
      fc.property(amount, language, currency, (value, lang, code) => {
        const text = formatPageMoney(lang, { amount: value, currency: code });
        return minorUnitsOf(text, lang, code) === value;
      }),
      { numRuns: 500 },
    );
  });

  it("writes what Intl.NumberFormat writes, wherever a float can still hold the amount exactly", () => {
    const safe = fc.bigInt({ min: 1n, max: 2n ** 40n }).map(String);
    fc.assert(
      fc.property(safe, language, fc.constantFrom("RUB", "USD", "JPY", "KWD"), (value, lang, code) => {
        const exponent = currencyExponent(code);
        const expected = new Intl.NumberFormat(lang === "ru" ? "ru-RU" : "en-US", {
          style: "currency",
          currency: code,
          currencyDisplay: lang === "ru" && code === "RUB" ? "symbol" : "code",
          minimumFractionDigits: exponent,
        }).format(Number(value) / 10 ** exponent);
        return formatPageMoney(lang, { amount: value, currency: code }) === expected;
      }),
      { numRuns: 300 },
    );
  });
});

describe("formatPageTime", () => {
  const at = new Date("2026-11-25T11:30:00.000Z");

  it("writes Moscow time for Russian and UTC for English, each naming its zone", () => {
    expect(formatPageTime("ru", at)).toBe("25 ноября 2026 г., 14:30\u00a0(МСК)");
    expect(formatPageTime("en", at)).toBe("25 November 2026, 11:30\u00a0UTC");
  });

  it("moves to the next day where Moscow already is, and keeps 24-hour time", () => {
    const late = new Date("2026-12-31T22:05:00.000Z");
    expect(formatPageTime("ru", late)).toBe("1 января 2027 г., 01:05\u00a0(МСК)");
    expect(formatPageTime("en", late)).toBe("31 December 2026, 22:05\u00a0UTC");
    expect(formatPageTime("en", new Date("2026-03-01T00:00:59.999Z"))).toBe("1 March 2026, 00:00\u00a0UTC");
  });
});
