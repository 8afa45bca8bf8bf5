import fc from "fast-check";

/**
 * Generators of card numbers (PANs) for property tests, shared by the card rule's tests and the HTTP
 * fuzzer. The check digit is computed here independently of `card-guard.ts`, so a generated number
 * does not trust the code under test.
 */
export function luhnCheckDigit(payload: string): number {
  let sum = 0;
  [...payload].reverse().forEach((char, index) => {
    const doubled = index % 2 === 0 ? Number(char) * 2 : Number(char);
    sum += Math.floor(doubled / 10) + (doubled % 10);
  });
  return (10 - (sum % 10)) % 10;
}

/** A Luhn-valid run of 13–19 digits. */
export const cardNumberArb = fc
  .integer({ min: 13, max: 19 })
  .chain((length) =>
    fc.string({ unit: fc.constantFrom(..."0123456789"), minLength: length - 1, maxLength: length - 1 }),
  )
  .map((payload) => payload + luhnCheckDigit(payload));

/** Characters that show as nothing: zero-width space, non-joiner, joiner, word joiner, BOM. */
export const ZERO_WIDTH = ["\u200b", "\u200c", "\u200d", "\u2060", "\ufeff"] as const;

/**
 * What people put between a card's groups: one non-alphanumeric character, whitespace runs, " - ",
 * a repeated mark ("--"), parentheses ("(4111) (1111)"), and zero-width characters.
 */
export const cardSeparatorArb = fc.oneof(
  fc.constantFrom(..." -._/\\|,:;+*#~=", "\u00a0", "\u2009", "\u2013", "\t", "\n", "\u00b7", "\u{1F4B3}"),
  fc.constantFrom("  ", "   ", " - ", "- ", " /", "\r\n", "--", " -- ", "..", "//", ")(", ") (", "\u200b-"),
  fc.constantFrom(...ZERO_WIDTH),
);

/** Full-width digits (U+FF10–U+FF19) for `digits`: all of them, every other one, or none. */
const widenedArb = (digits: string) =>
  fc
    .constantFrom("none", "all", "some")
    .map((how) =>
      how === "none"
        ? digits
        : digits.replace(/[0-9]/g, (digit, at: number) =>
            how === "all" || at % 2 === 0 ? String.fromCharCode(0xff10 + Number(digit)) : digit,
          ),
    );

/**
 * A card number cut into groups of 1–6 digits joined by separators ("4111.1111 1111_1111"), its digits
 * possibly full-width.
 */
export const writtenCardNumberArb = cardNumberArb.chain((card) =>
  fc
    .array(fc.tuple(fc.integer({ min: 1, max: 6 }), cardSeparatorArb), { maxLength: 8 })
    .map((cuts) => {
      let rest = card;
      let text = "";
      for (const [size, separator] of cuts) {
        if (rest.length <= size) break;
        text += rest.slice(0, size) + separator;
        rest = rest.slice(size);
      }
      return text + rest;
    })
    .chain(widenedArb),
);
