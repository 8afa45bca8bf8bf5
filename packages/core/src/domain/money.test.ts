import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MAX_AMOUNT } from "./limits.js";
import {
  CURRENCY_EXPONENTS,
  currencyExponent,
  formatAmount,
  formatMoney,
  isValidAmount,
  parseAmount,
} from "./money.js";

const amountArb = fc.bigInt({ min: 1n, max: MAX_AMOUNT });
const currencyArb = fc.constantFrom("RUB", "USD", "JPY", "KWD", "CLF", "XYZ");

describe("isValidAmount / parseAmount", () => {
  it("accepts 1 to 18 digits without a leading zero", () => {
    for (const value of ["1", "149900", "999999999999999999", "100"]) {
      expect(isValidAmount(value)).toBe(true);
      expect(parseAmount(value)).toBe(BigInt(value));
    }
  });

  it("rejects numbers and every malformed string the contract names", () => {
    const rejected: unknown[] = [
      149900,
      149900n,
      null,
      undefined,
      "0",
      "0100",
      "1499.00",
      "-5",
      "+5",
      " 100",
      "100 ",
      "100\n",
      "１２",
      "",
      "1e5",
      "1000000000000000000",
    ];
    for (const value of rejected) {
      expect(isValidAmount(value), String(value)).toBe(false);
      if (typeof value === "string") expect(parseAmount(value)).toBeNull();
    }
  });

  it("round-trips every amount from 1 to MAX_AMOUNT", () => {
    fc.assert(
      fc.property(amountArb, (n) => {
        const text = String(n);
        expect(isValidAmount(text)).toBe(true);
        expect(parseAmount(text)).toBe(n);
      }),
    );
  });

  it("never accepts a leading zero, sign, dot or space", () => {
    const prefix = fc.constantFrom("0", "-", "+", ".", " ", "\t");
    fc.assert(
      fc.property(prefix, fc.bigInt({ min: 0n, max: MAX_AMOUNT }), (p, n) => {
        expect(isValidAmount(p + String(n))).toBe(false);
      }),
    );
  });

  it("rejects amounts above MAX_AMOUNT", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: MAX_AMOUNT + 1n, max: MAX_AMOUNT * 1000n }), (n) => {
        expect(isValidAmount(String(n))).toBe(false);
      }),
    );
  });
});

describe("currencyExponent", () => {
  it("knows the ISO 4217 exponents and defaults to 2", () => {
    expect(currencyExponent("RUB")).toBe(2);
    expect(currencyExponent("USD")).toBe(2);
    expect(currencyExponent("JPY")).toBe(0);
    expect(currencyExponent("KRW")).toBe(0);
    expect(currencyExponent("KWD")).toBe(3);
    expect(currencyExponent("BHD")).toBe(3);
    expect(currencyExponent("XYZ")).toBe(2);
    expect(currencyExponent("constructor")).toBe(2);
    expect(Object.isFrozen(CURRENCY_EXPONENTS)).toBe(true);
  });
});

describe("formatAmount / formatMoney", () => {
  it("writes major units with the currency's exponent", () => {
    expect(formatAmount({ amount: "149900", currency: "RUB" })).toBe("1499.00");
    expect(formatAmount({ amount: "5", currency: "RUB" })).toBe("0.05");
    expect(formatAmount({ amount: "100", currency: "USD" })).toBe("1.00");
    expect(formatAmount({ amount: "1500", currency: "JPY" })).toBe("1500");
    expect(formatAmount({ amount: "1", currency: "KWD" })).toBe("0.001");
    expect(formatAmount({ amount: "999999999999999999", currency: "RUB" })).toBe("9999999999999999.99");
    expect(formatMoney({ amount: "149900", currency: "RUB" })).toBe("1499.00 RUB");
  });

  it("refuses an amount that is not digits", () => {
    expect(() => formatAmount({ amount: "1.5", currency: "RUB" })).toThrow(RangeError);
  });

  it("loses no digit: removing the dot gives back the amount", () => {
    fc.assert(
      fc.property(amountArb, currencyArb, (n, currency) => {
        const formatted = formatAmount({ amount: String(n), currency });
        expect(BigInt(formatted.replace(".", ""))).toBe(n);
      }),
    );
  });

  it("agrees with bigint division by 10^exponent", () => {
    fc.assert(
      fc.property(amountArb, currencyArb, (n, currency) => {
        const exponent = currencyExponent(currency);
        const scale = 10n ** BigInt(exponent);
        const fraction = (n % scale).toString().padStart(exponent, "0");
        const expected = exponent === 0 ? String(n) : `${n / scale}.${fraction}`;
        expect(formatAmount({ amount: String(n), currency })).toBe(expected);
      }),
    );
  });
});
