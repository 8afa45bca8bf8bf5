import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Receipt, ReceiptItem } from "../domain/receipt.js";
import { itemTotal } from "../domain/receipt-total.js";
import { partialRefundReceipt } from "./refund-receipt.js";

const totalOf = (items: readonly ReceiptItem[]) =>
  items.reduce((sum, item) => {
    const line = itemTotal(item.quantity, item.amount.amount);
    if (!line.whole) throw new Error(`a line that is not whole: ${item.quantity} × ${item.amount.amount}`);
    return sum + line.minorUnits;
  }, 0n);

/** An item with a whole total, as receipts are accepted (whole quantities, or .5 of an even price). */
const itemArb = fc
  .record({
    units: fc.integer({ min: 1, max: 20 }),
    half: fc.boolean(),
    price: fc.integer({ min: 1, max: 500_000 }),
    vatCode: fc.integer({ min: 1, max: 12 }),
  })
  .map(
    ({ units, half, price, vatCode }): ReceiptItem => ({
      description: "",
      quantity: half ? `${units}.5` : `${units}`,
      amount: { amount: String(half ? price * 2 : price), currency: "RUB" },
      vatCode,
      paymentSubject: "commodity",
      paymentMode: "full_payment",
    }),
  );
/** Items named by their place, so a refund's lines can be traced back. */
const receiptArb = fc.array(itemArb, { minLength: 1, maxLength: 8 }).map(
  (items): Receipt => ({
    customer: { email: "payer@example.test", phone: null },
    taxSystemCode: 1,
    items: items.map((item, index) => ({ ...item, description: `item ${index}` })),
  }),
);

/** A receipt and a split of its total into refunds made one after another. */
const splitArb = receiptArb.chain((receipt) => {
  const total = totalOf(receipt.items);
  return fc
    .uniqueArray(fc.bigInt({ min: 1n, max: total - 1n > 0n ? total - 1n : 1n }), { maxLength: 6 })
    .map((cuts) => {
      const points = [0n, ...cuts.filter((c) => c < total).sort((a, b) => (a < b ? -1 : 1)), total];
      return { receipt, parts: points.slice(1).map((end, i) => end - (points[i] ?? 0n)) };
    });
});

describe("partialRefundReceipt", () => {
  it("comes to the refund exactly, keeps each item's codes, and successive refunds return every item once", () => {
    fc.assert(
      fc.property(splitArb, ({ receipt, parts }) => {
        let before = 0n;
        const returned = new Map<number, bigint>();
        for (const amount of parts) {
          const refund = partialRefundReceipt(receipt, before, amount);
          expect(totalOf(refund.items)).toBe(amount);
          expect(refund.customer).toEqual(receipt.customer);
          expect(refund.taxSystemCode).toBe(receipt.taxSystemCode);
          for (const line of refund.items) {
            const index = Number(line.description.slice("item ".length));
            const { quantity: _q, amount: _a, ...codes } = receipt.items[index] as ReceiptItem;
            expect(line).toMatchObject(codes);
            returned.set(index, (returned.get(index) ?? 0n) + totalOf([line]));
          }
          before += amount;
        }
        receipt.items.forEach((item, index) => {
          expect(returned.get(index)).toBe(totalOf([item]));
        });
      }),
    );
  });

  it("keeps whole items, counts whole units of a cut item, and prices a smaller part as one unit", () => {
    const receipt: Receipt = {
      customer: { email: null, phone: "+79990000000" },
      taxSystemCode: null,
      items: [
        { ...item("Beans"), quantity: "2", amount: { amount: "50000", currency: "RUB" } },
        { ...item("Delivery"), quantity: "1", amount: { amount: "49900", currency: "RUB" } },
      ],
    };
    expect(partialRefundReceipt(receipt, 0n, 100000n).items).toEqual([receipt.items[0]]);
    expect(partialRefundReceipt(receipt, 50000n, 99900n).items).toEqual([
      { ...receipt.items[0], quantity: "1" },
      receipt.items[1],
    ]);
    expect(partialRefundReceipt(receipt, 0n, 100n).items).toEqual([
      { ...receipt.items[0], quantity: "1", amount: { amount: "100", currency: "RUB" } },
    ]);
  });
});

function item(description: string): ReceiptItem {
  return {
    description,
    quantity: "1",
    amount: { amount: "1", currency: "RUB" },
    vatCode: 1,
    paymentSubject: "commodity",
    paymentMode: "full_payment",
  };
}
