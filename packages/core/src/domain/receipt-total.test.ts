import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { RECEIPT_QUANTITY_PATTERN } from "./limits.js";
import { formatThousandths, itemTotal, quantityInThousandths, receiptTotal } from "./receipt-total.js";

/** A quantity as the API accepts it, with the thousandths it stands for. */
const quantityArb = fc
  .record({ whole: fc.bigInt({ min: 0n, max: 999_999_999n }), decimals: fc.integer({ min: 0, max: 3 }) })
  .chain(({ whole, decimals }) =>
    fc.bigInt({ min: 0n, max: 10n ** BigInt(decimals) - 1n }).map((fraction) => {
      const text =
        decimals === 0 ? whole.toString() : `${whole}.${fraction.toString().padStart(decimals, "0")}`;
      return { text, thousandths: whole * 1000n + fraction * 10n ** BigInt(3 - decimals) };
    }),
  )
  .filter(({ thousandths }) => thousandths > 0n);
const unitAmountArb = fc.bigInt({ min: 1n, max: 10n ** 12n });

describe("quantityInThousandths", () => {
  it("reads every accepted quantity exactly, whatever its decimals", () => {
    fc.assert(
      fc.property(quantityArb, ({ text, thousandths }) => {
        expect(RECEIPT_QUANTITY_PATTERN.test(text)).toBe(true);
        expect(quantityInThousandths(text)).toBe(thousandths);
      }),
    );
    expect(quantityInThousandths("0.5")).toBe(500n);
    expect(quantityInThousandths("2.000")).toBe(2000n);
    expect(quantityInThousandths("12.345")).toBe(12345n);
  });

  it("refuses what is not a quantity: signs, exponents, four decimals, commas, leading zeros", () => {
    for (const bad of ["", "-1", "+1", "1e3", "1.2345", "1,5", "01", ".5", "1.", " 1", "1 ", "NaN", "１"]) {
      expect(quantityInThousandths(bad)).toBeNull();
    }
  });
});

describe("itemTotal", () => {
  it("is the exact product: whole when it is, else the exact thousandths", () => {
    expect(itemTotal("3", "149900")).toEqual({ whole: true, minorUnits: 449700n });
    expect(itemTotal("0.5", "1000")).toEqual({ whole: true, minorUnits: 500n });
    // 0.333 × 100 kopecks = 33.3 kopecks: no whole amount, reported exactly rather than rounded.
    expect(itemTotal("0.333", "100")).toEqual({ whole: false, thousandths: 33300n });
    expect(formatThousandths(33300n)).toBe("33.3");
    // Far past a double's 2^53: still exact.
    expect(itemTotal("999999999.999", "999999999999")).toEqual({
      whole: false,
      thousandths: 999999999999n * 999999999999n,
    });
  });

  it("whole quantities scale the unit amount exactly, and a whole number of thousandths of 1000 is whole", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: 999_999_999n }), unitAmountArb, (units, amount) => {
        expect(itemTotal(units.toString(), amount.toString())).toEqual({
          whole: true,
          minorUnits: units * amount,
        });
        expect(itemTotal(`${units}.000`, amount.toString())).toEqual(
          itemTotal(units.toString(), amount.toString()),
        );
        // Any quantity times a multiple of 1000 minor units is whole.
        expect(itemTotal("0.001", (amount * 1000n).toString())).toEqual({ whole: true, minorUnits: amount });
      }),
    );
  });

  it("is whole exactly when quantity-thousandths × amount divides by 1000", () => {
    fc.assert(
      fc.property(quantityArb, unitAmountArb, ({ text, thousandths }, amount) => {
        const line = itemTotal(text, amount.toString());
        const product = thousandths * amount;
        if (product % 1000n === 0n) expect(line).toEqual({ whole: true, minorUnits: product / 1000n });
        else expect(line).toEqual({ whole: false, thousandths: product });
      }),
    );
  });
});

describe("receiptTotal", () => {
  it("is the sum of the items' totals, in any order", () => {
    const itemArb = fc.record({ units: fc.bigInt({ min: 1n, max: 10_000n }), amount: unitAmountArb });
    fc.assert(
      fc.property(fc.array(itemArb, { minLength: 1, maxLength: 100 }), (items) => {
        const lines = items.map(({ units, amount }) => ({
          quantity: units.toString(),
          unitAmount: amount.toString(),
        }));
        const expected = items.reduce((sum, { units, amount }) => sum + units * amount, 0n);
        expect(receiptTotal(lines)).toEqual({ total: expected, fractional: [] });
        expect(receiptTotal([...lines].reverse()).total).toBe(expected);
      }),
    );
  });

  it("splitting one item's quantity over two items keeps the total", () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 2n, max: 1_000_000n }),
        fc.bigInt({ min: 1n, max: 10n ** 9n }),
        fc.bigInt({ min: 1n, max: 999_999n }),
        (units, amount, cut) => {
          const first = (cut % (units - 1n)) + 1n;
          const one = receiptTotal([{ quantity: units.toString(), unitAmount: amount.toString() }]);
          const two = receiptTotal([
            { quantity: first.toString(), unitAmount: amount.toString() },
            { quantity: (units - first).toString(), unitAmount: amount.toString() },
          ]);
          expect(two).toEqual(one);
        },
      ),
    );
  });

  it("names the items whose totals are not whole", () => {
    expect(
      receiptTotal([
        { quantity: "1", unitAmount: "100" },
        { quantity: "0.333", unitAmount: "100" },
        { quantity: "0.5", unitAmount: "3" },
      ]),
    ).toEqual({ total: 100n, fractional: [1, 2] });
  });
});
