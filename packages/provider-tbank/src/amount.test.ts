import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fromKopecks, MAX_KOPECKS, toKopecks } from "./amount.js";

describe("kopecks", () => {
  it("round-trip exactly for every amount T-Bank takes", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: BigInt(MAX_KOPECKS) }), (minor) => {
        const money = { amount: minor.toString(), currency: "RUB" };
        const kopecks = toKopecks(money);
        expect(kopecks).not.toBeNull();
        expect(BigInt(kopecks ?? 0)).toBe(minor);
        expect(fromKopecks(kopecks ?? 0)).toEqual(money);
      }),
    );
  });

  it("refuses what T-Bank cannot take: more than 10 digits, other currencies, malformed amounts", () => {
    expect(toKopecks({ amount: "10000000000", currency: "RUB" })).toBeNull();
    expect(toKopecks({ amount: "100", currency: "USD" })).toBeNull();
    expect(toKopecks({ amount: "0100", currency: "RUB" })).toBeNull();
    expect(toKopecks({ amount: "1499.00", currency: "RUB" })).toBeNull();
    expect(fromKopecks(1.5)).toBeNull();
    expect(fromKopecks(0)).toBeNull();
  });
});
