// @kopek/testing's fixtures by path: that package depends on core, so core cannot depend on it.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { spliceString, stringPlaces } from "../../../testing/src/string-paths.js";
import { stringIssues } from "./body-strings.js";
import { toPointer } from "./json-pointer.js";
import { firstUnstorableCharacter, isStorableText, storableCharacterRule } from "./storable-text.js";
import { validateCreateInvoice, validateCreateRefund, validateCreateSubscription } from "./validate.js";

const context = { currencies: ["RUB", "USD", "EUR"], now: new Date("2026-11-22T09:30:00.000Z") };
const receipt = {
  customer: { email: "buyer@example.com", phone: "+79991234567" },
  items: [
    {
      description: "Plan",
      quantity: "1",
      amount: { amount: "149900", currency: "RUB" },
      vatCode: 1,
      paymentSubject: "service",
      paymentMode: "full_payment",
    },
  ],
};
const subscription = {
  amount: { amount: "149900", currency: "RUB" },
  period: { unit: "month", count: 1 },
  method: "card",
  providerMethodRef: "pm_abc",
  description: "Premium",
  metadata: { order: "42", plan: "premium" },
  receipt,
};
const invoice = {
  amount: { amount: "149900", currency: "RUB" },
  description: "Premium",
  comment: "thanks",
  customer: { email: "buyer@example.com", phone: "+79991234567", externalId: "cus_1" },
  metadata: { order: "42" },
  returnUrl: "https://shop.example/return",
  receipt,
};
const refund = { amount: { amount: "100", currency: "RUB" }, reason: "asked" };

const loneSurrogateArb = fc.integer({ min: 0xd800, max: 0xdfff }).map((code) => String.fromCharCode(code));
const badArb = fc.oneof(fc.constant("\u0000"), loneSurrogateArb, fc.constant("a\u0000\ud800b"));
const validators = [
  ["subscription", subscription, validateCreateSubscription],
  ["invoice", invoice, validateCreateInvoice],
  ["refund", refund, validateCreateRefund],
] as const;

describe("firstUnstorableCharacter", () => {
  it("finds NUL and lone surrogates, and nothing in well-formed text", () => {
    expect(firstUnstorableCharacter("ab\u0000")).toBe(2);
    expect(firstUnstorableCharacter("a\ud83d\ude00\udc00")).toBe(3);
    expect(firstUnstorableCharacter("\ud83d")).toBe(0);
    expect(firstUnstorableCharacter("a\ud83d\ude00b")).toBe(-1);
    expect(firstUnstorableCharacter("")).toBe(-1);
  });

  it("agrees with isStorableText on any string", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), (text) => {
        expect(firstUnstorableCharacter(text) === -1).toBe(isStorableText(text));
        expect(isStorableText(text)).toBe(text.isWellFormed() && !text.includes("\u0000"));
      }),
    );
  });
});

describe.each(validators)("the %s body", (_name, body, validateBody) => {
  const places = stringPlaces(body);
  it("refuses NUL or a lone surrogate anywhere, in any value or key, with invalid_character at its pointer", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...places),
        badArb,
        fc.double({ min: 0, max: 1, noNaN: true }),
        (place, bad, at) => {
          const { body: sent, path } = spliceString(body, place, bad, at);
          const result = validateBody(sent, context);
          expect(result.isErr()).toBe(true);
          const issues = result.isErr() ? result.error.errors : [];
          expect(issues).toContainEqual({
            pointer: toPointer(path),
            code: "invalid_character",
            detail: expect.any(String),
          });
        },
      ),
    );
  });

  it("accepts odd but storable Unicode: emoji, full-width, zero-width joiner, right-to-left", () => {
    const odd = [
      "👩\u200d💻 🇷🇺",
      "ＡＢＣ１２３",
      "a\u200db\u200cc",
      "\u202eمرحبا\u202c שלום",
      "e\u0301 \ufffd \uffff",
    ];
    for (const text of odd) {
      const field = "description" in body ? "description" : "reason";
      const { body: sent } = spliceString(body, { path: [field], isKey: false }, text, 1);
      expect(validateBody(sent, context).isOk(), text).toBe(true);
      const keyed = { ...body, metadata: { [`k${text}`.slice(0, 40)]: text } };
      if (body !== refund) expect(validateBody(keyed, context).isOk(), text).toBe(true);
    }
  });
});

describe("stringIssues with the storable-character rule", () => {
  it("reports every bad string of any nested JSON at its pointer, and nothing in good ones", () => {
    const goodText = fc.string({ unit: "grapheme", maxLength: 8 });
    fc.assert(
      fc.property(
        fc.json({ maxDepth: 6 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        badArb,
        (text, at, bad) => {
          const clean = JSON.parse(text.replaceAll("\\u0000", "")) as unknown;
          fc.pre(stringIssues(clean, [storableCharacterRule]).length === 0);
          const places = stringPlaces(clean);
          const place = places[Math.floor(at * places.length)];
          if (place === undefined) return;
          const { body: dirty, path } = spliceString(clean, place, bad, at);
          expect(stringIssues(dirty, [storableCharacterRule]).map((issue) => issue.pointer)).toEqual([
            toPointer(path),
          ]);
        },
      ),
    );
    fc.assert(
      fc.property(fc.dictionary(goodText, fc.array(goodText)), (object) => {
        expect(stringIssues(object, [storableCharacterRule])).toEqual([]);
      }),
    );
  });
});
