// @kopek/testing's fixtures by path: that package depends on core, so core cannot depend on it.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { cardNumberArb, luhnCheckDigit, writtenCardNumberArb } from "../../../testing/src/card-numbers.js";
import { validateCreateInvoice, validateCreateRefund, validateCreateSubscription } from "./validate.js";

const context = { currencies: ["RUB"], now: new Date("2026-11-22T09:30:00.000Z") };
const amount = { amount: "149900", currency: "RUB" };
const subscription = {
  amount,
  period: { unit: "month", count: 1 },
  method: "card",
  providerMethodRef: "pm_1",
};

const sub = (body: unknown) => validateCreateSubscription(body, context);
const inv = (body: unknown) => validateCreateInvoice(body, context);
const ref = (body: unknown) => validateCreateRefund(body, context);

/** Every free-text place of every request: where to plant a text, and the pointer that must refuse it. */
const PLACES: ReadonlyArray<[string, (text: string) => unknown, (body: unknown) => unknown, string]> = [
  [
    "subscription providerMethodRef",
    (t) => ({ ...subscription, providerMethodRef: t }),
    sub,
    "#/providerMethodRef",
  ],
  ["subscription description", (t) => ({ ...subscription, description: t }), sub, "#/description"],
  ["subscription metadata value", (t) => ({ ...subscription, metadata: { k: t } }), sub, "#/metadata/k"],
  ["invoice description", (t) => ({ amount, description: t }), inv, "#/description"],
  ["invoice comment", (t) => ({ amount, comment: t }), inv, "#/comment"],
  [
    "invoice customer.externalId",
    (t) => ({ amount, customer: { email: "a@b.co", externalId: t } }),
    inv,
    "#/customer/externalId",
  ],
  [
    "invoice customer.email",
    (t) => ({ amount, customer: { email: `x${t.replace(/\s/g, "")}@b.co` } }),
    inv,
    "#/customer/email",
  ],
  [
    "invoice returnUrl",
    (t) => ({ amount, returnUrl: `https://shop.example/back?n=${encodeURI(t)}` }),
    inv,
    "#/returnUrl",
  ],
  ["invoice metadata value", (t) => ({ amount, metadata: { order: t } }), inv, "#/metadata/order"],
  ["refund reason", (t) => ({ reason: t }), ref, "#/reason"],
];

function issuesOf(result: unknown): string[] {
  const r = result as ReturnType<typeof validateCreateRefund>;
  return r.isErr() ? r.error.errors.map((e) => `${e.pointer} ${e.code}`) : [];
}

const around = fc.string({ unit: fc.constantFrom(..."abz XY:#"), maxLength: 6 });

describe("the card-data rule of every request", () => {
  it.each(PLACES)("refuses a card number however written in the %s", (_name, plant, validate, pointer) => {
    fc.assert(
      fc.property(around, writtenCardNumberArb, around, (before, card, after) => {
        expect(issuesOf(validate(plant(`${before}${card}${after}`)))).toContain(
          `${pointer} card_number_not_allowed`,
        );
      }),
      { numRuns: 200 },
    );
  });

  it("refuses a card number in a metadata key, and does not echo it in the pointer", () => {
    fc.assert(
      fc.property(writtenCardNumberArb, (card) => {
        const issues = issuesOf(inv({ amount, metadata: { [`c${card}`.slice(0, 40)]: "x" } }));
        const key = `c${card}`.slice(0, 40);
        if (!/[0-9]{13}/.test(key.replace(/[^0-9]/g, ""))) return; // cut short by the 40-char slice
        expect(issues.some((issue) => issue.endsWith("card_number_not_allowed"))).toBe(true);
        expect(issues.join(" ")).not.toContain(card.replace(/[^0-9]/g, "").slice(0, 13));
      }),
      { numRuns: 200 },
    );
  });

  it("lets ordinary text through: phone numbers, dates, numbers that fail Luhn", () => {
    for (const text of [
      "call +7 (999) 123-45-67 or +1 415 555 0132",
      "delivery 22.11.2026 09:30, order 2026-11-22/0042",
      "order #100234 of 2026-11-22T09:30:00Z, 3 items",
      "INN 7707083893, KPP 773601001",
    ]) {
      expect(issuesOf(inv({ amount, description: text, metadata: { note: text } })), text).toEqual([]);
    }
    const notLuhn = cardNumberArb.map((card) => {
      const wrong = (luhnCheckDigit(card.slice(0, -1)) + 1) % 10;
      return card.slice(0, -1) + wrong;
    });
    fc.assert(
      fc.property(notLuhn, (order) => {
        expect(issuesOf(inv({ amount, description: `order ${order}`, metadata: { order } }))).toEqual([]);
      }),
    );
  });

  it("leaves digit-only formats alone: an 18-digit amount that passes Luhn, an expiry with an offset", () => {
    const payload = "41111111111111111";
    const big = payload + luhnCheckDigit(payload);
    expect(issuesOf(inv({ amount: { amount: big, currency: "RUB" } }))).toEqual([]);
    expect(issuesOf(inv({ amount, expiresAt: "2026-11-23T09:30:00.000+03:00" }))).toEqual([]);
  });

  it("never refuses a UUID (an invoiceId, a ref or an external id) whose digit groups pass Luhn", () => {
    // Found in CI: a UUID whose segments were all digits read as a 16-digit card number.
    const subscription = (invoiceId: string) =>
      validateCreateSubscription(
        { amount, period: { unit: "month", count: 1 }, invoiceId },
        { currencies: ["RUB"], now: new Date("2026-11-25T00:00:00Z") },
      );
    expect(issuesOf(subscription("01921306-7628-7221-8426-000000000000"))).toEqual([]);
    fc.assert(
      fc.property(fc.uuid(), (id) => {
        expect(issuesOf(subscription(id))).toEqual([]);
        expect(issuesOf(inv({ amount, description: `order ${id}`, metadata: { ref: `pm_${id}` } }))).toEqual(
          [],
        );
      }),
    );
  });
});
