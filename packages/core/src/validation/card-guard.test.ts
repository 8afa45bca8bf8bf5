// @kopek/testing's fixtures by path: that package depends on core, so core cannot depend on it.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { cardNumberArb, writtenCardNumberArb } from "../../../testing/src/card-numbers.js";
import { containsCardNumber, formatCardMask, luhnValid, redactCardNumbers } from "./card-guard.js";

const cardArb = cardNumberArb;
const lettersArb = fc.string({ unit: fc.constantFrom(..."abcxyz_ABC:/."), maxLength: 12 });

describe("luhnValid", () => {
  it("checks the Luhn digit", () => {
    expect(luhnValid("4111111111111111")).toBe(true);
    expect(luhnValid("79927398713")).toBe(true);
    expect(luhnValid("4111111111111112")).toBe(false);
    expect(luhnValid("79927398710")).toBe(false);
    expect(luhnValid("")).toBe(false);
    expect(luhnValid("4111 1111 1111 1111")).toBe(false);
  });

  it("agrees with an independent check digit", () => {
    fc.assert(
      fc.property(cardArb, (card) => {
        expect(luhnValid(card)).toBe(true);
      }),
    );
  });
});

describe("containsCardNumber", () => {
  it("finds card numbers however they are written", () => {
    for (const text of [
      "4111111111111111",
      "tok_4111 1111 1111 1111",
      "4111-1111-1111-1111",
      "4111 1111-1111 1111",
      "4111 1111 1111 1111 12 25",
      "exp 12 25 4111 1111 1111 1111",
      "pm_2200700000000009x",
      "4111.1111.1111.1111",
      "4111_1111_1111_1111",
      "4111/1111/1111/1111",
      "4111  1111  1111  1111",
      "4111 - 1111 - 1111 - 1111",
      "4111\u00a01111\u00a01111\u00a01111",
      "4111\t1111\n1111\r\n1111",
      "4111--1111--1111--1111",
      "4111 -- 1111 -- 1111 -- 1111",
      "4111..1111..1111..1111",
      "(4111)(1111)(1111)(1111)",
      "(4111) (1111) (1111) (1111)",
      "\uff14\uff11\uff11\uff11\uff11\uff11\uff11\uff11\uff11\uff11\uff11\uff11\uff11\uff11\uff11\uff11",
      "4111\u200b1111\u200c1111\u200d1111",
      "4\u20601\ufeff11 1111 1111 1111",
      "4111-\u200b-1111-\u200b-1111-\u200b-1111",
    ]) {
      expect(containsCardNumber(text), text).toBe(true);
    }
  });

  it("ignores numbers that fail Luhn, are too short or too long, or are split by two different marks", () => {
    for (const text of [
      "4111111111111112",
      "4111--1111--1111--1112",
      "(4111)(1111)(1111)(1112)",
      "\uff14\uff11\uff11\uff11 1111 1111 1112",
      "4111._1111_1111_1111",
      "4111a1111b1111c1111",
      "4111111111111111111111111",
      "411111111117",
      "tok_abc",
      "",
    ]) {
      expect(containsCardNumber(text), text).toBe(false);
    }
    expect(luhnValid("411111111117")).toBe(true);
  });

  it("lets ordinary text, dates, phone numbers and amounts through", () => {
    for (const text of [
      "Оплата подписки «Премиум» на 12 месяцев, заказ № 2026-11-27/0042",
      "from 2026-01-31 to 2026-12-31, renewed 31.12.2026 at 23:59:59",
      "period 27.11.2026 — 27.12.2026 (30 days), 01/2027 - 12/2027",
      "call +7 (495) 123-45-67, +7 (812) 765-43-21 or 8 800 555-35-35",
      "+7 (495) 123-45-67; +7 (495) 765-43-21; +7 (495) 111-22-33",
      "1 499,00 ₽ + 2 999,00 ₽ = 4 498,00 ₽ (paid 1,499.00 USD, 2,999.00 EUR)",
      "amounts: 149900, 299900, 1499000 and 12 × 14 990,00 RUB",
      "ИНН 7707083893, КПП 773601001, БИК 044525225",
      "order 2026\u200d11\u200d27, ref ＡＢＣ－１２３",
    ]) {
      expect(containsCardNumber(text), text).toBe(false);
    }
  });

  it("finds every Luhn-valid 13–19 digit number inside letters", () => {
    fc.assert(
      fc.property(lettersArb, cardArb, lettersArb, (before, card, after) => {
        expect(containsCardNumber(before + card + after)).toBe(true);
      }),
    );
  });

  it("finds card numbers split into groups by any separator", () => {
    const groupedArb = writtenCardNumberArb;
    fc.assert(
      fc.property(lettersArb, groupedArb, (before, text) => {
        expect(containsCardNumber(before + text)).toBe(true);
      }),
    );
  });

  it("does not find a number whose check digit is wrong", () => {
    fc.assert(
      fc.property(
        lettersArb,
        cardArb,
        fc.integer({ min: 1, max: 9 }),
        lettersArb,
        (before, card, shift, after) => {
          const last = (Number(card.at(-1)) + shift) % 10;
          expect(containsCardNumber(before + card.slice(0, -1) + last + after)).toBe(false);
        },
      ),
    );
  });
});

describe("redactCardNumbers", () => {
  it("replaces each card number and keeps the rest", () => {
    expect(redactCardNumbers("card 4111 1111 1111 1111 12 25 ok")).toBe("card [REDACTED] 12 25 ok");
    expect(redactCardNumbers("a 4111111111111111 b 5500-0000-0000-0004")).toBe("a [REDACTED] b [REDACTED]");
    expect(redactCardNumbers("4111111111111111 4111111111111111")).toBe("[REDACTED] [REDACTED]");
    expect(redactCardNumbers("order 12345 for 4111111111111112")).toBe("order 12345 for 4111111111111112");
  });

  it("keeps UUIDs whose digit groups pass Luhn, and still redacts a card beside one", () => {
    // Found in CI: a project id in a log line came out as "01a2180b-[REDACTED]e9d85".
    const id = "01a2180b-7107-7495-8751-1673863e9d85";
    expect(redactCardNumbers(`project ${id}`)).toBe(`project ${id}`);
    expect(redactCardNumbers(`${id} 4111 1111 1111 1111`)).toBe(`${id} [REDACTED]`);
    expect(redactCardNumbers(`4111111111111111-${id}`)).toBe(`[REDACTED]-${id}`);
    fc.assert(
      fc.property(fc.uuid(), (uuid) => {
        expect(redactCardNumbers(uuid)).toBe(uuid);
      }),
    );
  });

  it("leaves no card number behind", () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(lettersArb, cardArb, fc.constantFrom(" ", "-", "12"))), (parts) => {
        expect(containsCardNumber(redactCardNumbers(parts.join("")))).toBe(false);
      }),
    );
  });
});

describe("formatCardMask", () => {
  it("shows first six and last four in groups of four", () => {
    expect(formatCardMask({ first6: "220070", last4: "1234", length: 16 })).toBe("2200 70** **** 1234");
    expect(formatCardMask({ first6: "411111", last4: "1234", length: 13 })).toBe("4111 11** *123 4");
    expect(formatCardMask({ first6: "411111", last4: "1234", length: 19 })).toBe("4111 11** **** ***1 234");
  });

  it("refuses impossible cards", () => {
    expect(() => formatCardMask({ first6: "22007", last4: "1234", length: 16 })).toThrow(RangeError);
    expect(() => formatCardMask({ first6: "220070", last4: "12a4", length: 16 })).toThrow(RangeError);
    expect(() => formatCardMask({ first6: "220070", last4: "1234", length: 12 })).toThrow(RangeError);
    expect(() => formatCardMask({ first6: "220070", last4: "1234", length: 20 })).toThrow(RangeError);
  });
});
