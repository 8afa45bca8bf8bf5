import { currencyExponent, formatAmount, type Money } from "@kopek/core";
import type { PageLanguage } from "./page-language.js";

/** The locale whose conventions each page language follows. */
const LOCALES: Readonly<Record<PageLanguage, string>> = { ru: "ru-RU", en: "en-US" };

// Symbols a payer of that language knows at a glance; any other currency shows its ISO code.
const SYMBOLS: Readonly<Record<PageLanguage, ReadonlySet<string>>> = {
  ru: new Set(["RUB"]),
  en: new Set(),
};

/**
 * How `Intl.NumberFormat` writes `currency` in `language`, as the pieces around the digits: the
 * separators and the currency's place are ICU's (Node 20: `1 499,00 ₽` with U+00A0, `RUB 1,499.00`);
 * the digits are ours, so an 18-digit amount never passes through a float.
 */
function layoutOf(language: PageLanguage, currency: string) {
  const exponent = currencyExponent(currency);
  const parts = new Intl.NumberFormat(LOCALES[language], {
    style: "currency",
    currency,
    currencyDisplay: SYMBOLS[language].has(currency) ? "symbol" : "code",
    minimumFractionDigits: exponent,
    maximumFractionDigits: exponent,
  }).formatToParts(1234);
  const first = parts.findIndex((p) => p.type === "integer");
  const last = parts.findLastIndex((p) => p.type === "integer" || p.type === "fraction");
  const text = (from: number, to: number) =>
    parts
      .slice(from, to)
      .map((p) => p.value)
      .join("");
  return {
    before: text(0, first),
    after: text(last + 1, parts.length),
    group: parts.find((p) => p.type === "group")?.value ?? "",
    decimal: parts.find((p) => p.type === "decimal")?.value ?? ".",
  };
}

const layouts = new Map<string, ReturnType<typeof layoutOf>>();

/** `money` as a payer of `language` reads it: `1 499,00 ₽` (U+00A0 between groups), `RUB 1,499.00`. */
export function formatPageMoney(language: PageLanguage, money: Money): string {
  const key = `${language}:${money.currency}`;
  const layout = layouts.get(key) ?? layoutOf(language, money.currency);
  layouts.set(key, layout);
  const [integer = "0", fraction] = formatAmount(money).split(".");
  const grouped = integer.replace(/\B(?=(?:[0-9]{3})+$)/g, layout.group);
  const number = fraction === undefined ? grouped : `${grouped}${layout.decimal}${fraction}`;
  return `${layout.before}${number}${layout.after}`;
}

const TIME_ZONES: Readonly<Record<PageLanguage, { zone: string; label: string }>> = {
  ru: { zone: "Europe/Moscow", label: "(МСК)" },
  en: { zone: "UTC", label: "UTC" },
};
const DATE_LOCALES: Readonly<Record<PageLanguage, string>> = { ru: "ru-RU", en: "en-GB" };

/**
 * A moment as a payer of `language` reads it, with its zone named: Moscow time for Russian
 * (`25 ноября 2026 г., 14:30 (МСК)`, U+00A0 before the zone), UTC for English (`25 November 2026, 11:30 UTC`).
 */
export function formatPageTime(language: PageLanguage, at: Date): string {
  const { zone, label } = TIME_ZONES[language];
  const options = { timeZone: zone } as const;
  const date = new Intl.DateTimeFormat(DATE_LOCALES[language], {
    ...options,
    day: "numeric",
    month: "long",
    year: "numeric",
  }).format(at);
  const time = new Intl.DateTimeFormat(DATE_LOCALES[language], {
    ...options,
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  }).format(at);
  // A no-break space keeps the zone with the time when the line wraps.
  return `${date}, ${time}\u00a0${label}`;
}
