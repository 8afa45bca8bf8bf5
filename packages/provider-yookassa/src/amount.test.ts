import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fromYooKassaAmount, toYooKassaAmount } from "./amount.js";

const minorUnits = fc.bigInt({ min: 0n, max: 999_999_999_999_999_999n }).map((value) => value.toString());

describe("YooKassa amounts", () => {
  it("writes minor units as major units with two decimals for RUB", () => {
    expect(toYooKassaAmount({ amount: "149900", currency: "RUB" })).toEqual({
      value: "1499.00",
      currency: "RUB",
    });
    expect(toYooKassaAmount({ amount: "1", currency: "RUB" })).toEqual({ value: "0.01", currency: "RUB" });
    expect(toYooKassaAmount({ amount: "100", currency: "RUB" }).value).toBe("1.00");
  });

  it("reads major units back, exactly", () => {
    expect(fromYooKassaAmount({ value: "1499.00", currency: "RUB" })).toEqual({
      amount: "149900",
      currency: "RUB",
    });
    expect(fromYooKassaAmount({ value: "2.5", currency: "RUB" })?.amount).toBe("250");
    expect(fromYooKassaAmount({ value: "10", currency: "RUB" })?.amount).toBe("1000");
    expect(fromYooKassaAmount({ value: "0.00", currency: "RUB" })?.amount).toBe("0");
  });

  it("refuses what is not a plain decimal with at most the currency's digits", () => {
    for (const value of ["1.001", "-1.00", "1e3", " 1.00", "1,00", "", "."]) {
      expect(fromYooKassaAmount({ value, currency: "RUB" })).toBeNull();
    }
  });

  it("round-trips every amount of up to 18 digits (property)", () => {
    fc.assert(
      fc.property(minorUnits, fc.constantFrom("RUB", "USD", "EUR", "JPY", "KWD"), (amount, currency) => {
        const money = { amount, currency };
        expect(fromYooKassaAmount(toYooKassaAmount(money))).toEqual(money);
      }),
    );
  });

  it("round-trips every major-unit string with two decimals (property)", () => {
    const majorUnits = fc
      .tuple(fc.bigInt({ min: 0n, max: 9_999_999_999_999_999n }), fc.integer({ min: 0, max: 99 }))
      .map(([whole, cents]) => `${whole}.${String(cents).padStart(2, "0")}`);
    fc.assert(
      fc.property(majorUnits, (value) => {
        const money = fromYooKassaAmount({ value, currency: "RUB" });
        expect(money).not.toBeNull();
        if (money !== null) expect(toYooKassaAmount(money).value).toBe(value);
      }),
    );
  });
});
