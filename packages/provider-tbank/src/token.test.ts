import { createHash } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { hasValidToken, signed, tokenOf } from "./token.js";

const fieldName = fc
  .stringMatching(/^[A-Z][A-Za-z]{0,15}$/)
  .filter((name) => name !== "Token" && name !== "Password");
const scalar = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.integer({ min: 0, max: 9_999_999_999 }),
  fc.boolean(),
);
const fields = fc.dictionary(fieldName, scalar, { minKeys: 1, maxKeys: 12 });
const password = fc.string({ minLength: 1, maxLength: 30 });

describe("T-Bank Token", () => {
  it("follows the documentation's example: root values and Password, sorted by name, concatenated, SHA-256", () => {
    // developer.tbank.ru/eacq/intro/developer/token: Receipt and DATA are left out.
    const request = {
      TerminalKey: "MerchantTerminalKey",
      Amount: 19200,
      OrderId: "00000",
      Description: "Подарочная карта на 1000 рублей",
      DATA: { Phone: "+71234567890" },
      Receipt: { Email: "a@test.com", Items: [] },
    };
    const concatenated = `19200Подарочная карта на 1000 рублей0000011111111111111MerchantTerminalKey`;
    expect(tokenOf(request, "11111111111111")).toBe(
      createHash("sha256").update(concatenated, "utf8").digest("hex"),
    );
  });

  it("writes booleans as true/false and leaves out Token itself", () => {
    const token = tokenOf({ Success: true, Token: "anything", PaymentId: 5 }, "pw");
    expect(token).toBe(createHash("sha256").update("pw5true", "utf8").digest("hex"));
  });

  it("verifies whatever fields it signed, and refuses a changed field, an added one or another password", () => {
    // An added empty string adds nothing to the concatenation: T-Bank's scheme cannot tell it, so neither can this.
    const nonEmpty = scalar.filter((value) => String(value) !== "");
    fc.assert(
      fc.property(fields, password, fieldName, nonEmpty, (body, secret, name, value) => {
        const sent = signed(body, secret);
        expect(hasValidToken(sent, secret)).toBe(true);
        expect(hasValidToken(sent, `${secret}x`)).toBe(false);
        const changed = { ...sent, [name]: value };
        const same = name in body && String(body[name]) === String(value);
        expect(hasValidToken(changed, secret)).toBe(same);
      }),
    );
  });

  it("ignores nested objects and arrays, as T-Bank does", () => {
    fc.assert(
      fc.property(fields, password, fc.jsonValue(), (body, secret, nested) => {
        const sent = signed(body, secret);
        expect(hasValidToken({ ...sent, DATA: { nested }, Items: [nested] }, secret)).toBe(true);
      }),
    );
  });

  it("refuses a missing or malformed Token", () => {
    expect(hasValidToken({ Amount: 1 }, "pw")).toBe(false);
    expect(hasValidToken({ Amount: 1, Token: "zz" }, "pw")).toBe(false);
    expect(hasValidToken({ Amount: 1, Token: 42 }, "pw")).toBe(false);
  });
});
