import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { validateCreateInvoice, validateCreateSubscription } from "./validate.js";

const context = { currencies: ["RUB", "USD", "EUR"], now: new Date("2026-11-22T09:30:00.000Z") };
const subscription = {
  amount: { amount: "149900", currency: "RUB" },
  period: { unit: "month", count: 1 },
  method: "card",
  providerMethodRef: "pm_abc",
};
const invoice = { amount: { amount: "149900", currency: "RUB" } };

function problems(result: ReturnType<typeof validateCreateInvoice>): string[] {
  return result.isErr() ? result.error.errors.map((e) => `${e.pointer} ${e.code}`) : [];
}

describe("validateCreateSubscription", () => {
  it("accepts the minimal request", () => {
    expect(validateCreateSubscription(subscription, context).isOk()).toBe(true);
  });

  it("reports every missing field as required, at once", () => {
    expect(problems(validateCreateSubscription({}, context)).sort()).toEqual(
      ["#/amount required", "#/method required", "#/period required", "#/providerMethodRef required"].sort(),
    );
  });

  it("rejects a body that is not an object", () => {
    for (const body of [null, [], "x", 5, undefined]) {
      expect(problems(validateCreateSubscription(body, context))).toEqual(["# invalid_type"]);
    }
  });

  it.each([
    [{ unit: "month", count: 13 }, "#/period/count too_large"],
    [{ unit: "day", count: 366 }, "#/period/count too_large"],
    [{ unit: "week", count: 53 }, "#/period/count too_large"],
    [{ unit: "year", count: 2 }, "#/period/count too_large"],
    [{ unit: "month", count: 0 }, "#/period/count too_small"],
    [{ unit: "month", count: 1.5 }, "#/period/count invalid_type"],
    [{ unit: "fortnight", count: 1 }, "#/period/unit invalid_value"],
  ])("rejects the period %j", (period, problem) => {
    expect(problems(validateCreateSubscription({ ...subscription, period }, context))).toEqual([problem]);
  });

  it.each([
    ["4111111111111111", "card_number_not_allowed"],
    ["tok 2200-7000-0000-0009", "card_number_not_allowed"],
    ["", "too_small"],
    ["x".repeat(256), "too_long"],
    ["tab\there", "invalid_format"],
  ])("rejects providerMethodRef %j", (ref, code) => {
    expect(
      problems(validateCreateSubscription({ ...subscription, providerMethodRef: ref }, context)),
    ).toContain(`#/providerMethodRef ${code}`);
  });

  it("allows a digit run that fails the Luhn check", () => {
    expect(
      validateCreateSubscription({ ...subscription, providerMethodRef: "4111111111111112" }, context).isOk(),
    ).toBe(true);
  });

  it("rejects a currency the provider does not support, and lower case", () => {
    const unsupported = { ...subscription, amount: { amount: "1", currency: "GBP" } };
    const lower = { ...subscription, amount: { amount: "1", currency: "rub" } };
    expect(problems(validateCreateSubscription(unsupported, context))).toEqual([
      "#/amount/currency unsupported_currency",
    ]);
    expect(problems(validateCreateSubscription(lower, context))).toEqual([
      "#/amount/currency invalid_format",
    ]);
  });

  it("rejects unknown fields anywhere, naming each", () => {
    const body = { ...subscription, extra: 1, period: { unit: "month", count: 1, every: 2 } };
    expect(problems(validateCreateSubscription(body, context)).sort()).toEqual([
      "#/extra unknown_field",
      "#/period/every unknown_field",
    ]);
  });

  it("enforces the metadata limits and refuses a __proto__ key instead of dropping it", () => {
    const tooMany = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, "v"]));
    expect(problems(validateCreateSubscription({ ...subscription, metadata: tooMany }, context))).toEqual([
      "#/metadata too_large",
    ]);
    expect(
      problems(validateCreateSubscription({ ...subscription, metadata: { ["k".repeat(41)]: "v" } }, context)),
    ).toEqual([`#/metadata/${"k".repeat(41)} too_long`]);
    expect(problems(validateCreateSubscription({ ...subscription, metadata: { a: 1 } }, context))).toEqual([
      "#/metadata/a invalid_type",
    ]);
    const proto = JSON.parse('{"__proto__":"x"}') as unknown;
    expect(problems(validateCreateSubscription({ ...subscription, metadata: proto }, context))).toEqual([
      "#/metadata/__proto__ invalid_value",
    ]);
  });
});

describe("validateCreateInvoice", () => {
  it("accepts the minimal request and a full one", () => {
    expect(validateCreateInvoice(invoice, context).isOk()).toBe(true);
    const full = {
      ...invoice,
      methods: ["card", "sbp"],
      description: "d",
      comment: null,
      customer: { email: "a@b.co", phone: null, externalId: null },
      metadata: { a: "b" },
      returnUrl: "http://localhost:8080/back",
      expiresAt: "2026-11-22T15:30:00+03:00",
    };
    expect(validateCreateInvoice(full, context).isOk()).toBe(true);
  });

  it("reports method and methods together as mutually_exclusive, with the other problems", () => {
    const body = { amount: { amount: "-5", currency: "RUB" }, method: "card", methods: ["sbp"] };
    expect(problems(validateCreateInvoice(body, context)).sort()).toEqual([
      "#/amount/amount invalid_format",
      "#/methods mutually_exclusive",
    ]);
  });

  it.each([
    [{ methods: [] }, "#/methods too_small"],
    [{ methods: ["card", "card"] }, "#/methods duplicate"],
    [{ methods: ["cash"] }, "#/methods/0 invalid_value"],
    [{ customer: { phone: "+7999" } }, "#/customer/email required"],
    [{ customer: { email: "not-an-address" } }, "#/customer/email invalid_format"],
    [{ customer: { email: "a@b.co", phone: "89991234567" } }, "#/customer/phone invalid_format"],
    [{ returnUrl: "ftp://example.com/x" }, "#/returnUrl invalid_format"],
    [{ returnUrl: "/relative" }, "#/returnUrl invalid_format"],
    [{ comment: "c".repeat(1001) }, "#/comment too_long"],
    [{ description: "d".repeat(501) }, "#/description too_long"],
    [{ expiresAt: "2026-11-22T09:30:30.000Z" }, "#/expiresAt too_small"],
    [{ expiresAt: "2026-12-23T09:30:00.000Z" }, "#/expiresAt too_large"],
    [{ expiresAt: "tomorrow" }, "#/expiresAt invalid_format"],
  ])("rejects %j", (extra, problem) => {
    expect(problems(validateCreateInvoice({ ...invoice, ...extra }, context))).toEqual([problem]);
  });

  it("escapes pointers per RFC 6901", () => {
    expect(problems(validateCreateInvoice({ ...invoice, "a/b~c": 1 }, context))).toEqual([
      "#/a~1b~0c unknown_field",
    ]);
  });
});

describe("validation properties", () => {
  it("accepts exactly the amounts of API.md 5.1", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.bigInt({ min: -10n, max: 10n ** 19n }).map(String)), (amount) => {
        const valid = /^[1-9][0-9]{0,17}$/.test(amount);
        const result = validateCreateInvoice({ amount: { amount, currency: "RUB" } }, context);
        expect(result.isOk()).toBe(valid);
      }),
    );
  });

  it("never throws and always names a pointer into the body for arbitrary JSON", () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.jsonValue(), (a, b) => {
        for (const body of [a, { ...invoice, extra: b }, { amount: a, period: b }]) {
          const results = [validateCreateInvoice(body, context), validateCreateSubscription(body, context)];
          for (const result of results) {
            if (result.isErr()) {
              expect(result.error.errors.length).toBeGreaterThan(0);
              for (const issue of result.error.errors) expect(issue.pointer.startsWith("#")).toBe(true);
            }
          }
        }
      }),
    );
  });
});
