import type { Receipt, ReceiptItem } from "@kopek/core";
import { sampleReceipt } from "@kopek/testing";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { toTBankReceipt } from "./receipt-mapping.js";

const item = (overrides: Partial<ReceiptItem> = {}): ReceiptItem => ({
  description: "Подписка",
  quantity: "1",
  amount: { amount: "149900", currency: "RUB" },
  vatCode: 1,
  paymentSubject: "service",
  paymentMode: "full_prepayment",
  ...overrides,
});
const receiptOf = (items: ReceiptItem[], overrides: Partial<Receipt> = {}): Receipt => ({
  customer: { email: "buyer@example.com", phone: null },
  taxSystemCode: 1,
  items,
  ...overrides,
});

describe("Kopek's receipt as T-Bank's Receipt", () => {
  it("maps every field: FFD 1.05, Taxation, Email and Phone, each item's Price, Quantity, Amount in kopecks", () => {
    const mapped = toTBankReceipt(sampleReceipt("149901"));
    expect(mapped).toEqual({
      ok: {
        FfdVersion: "1.05",
        Taxation: "usn_income",
        Email: "buyer@example.com",
        Phone: "+79991234567",
        Items: [
          {
            Name: "Подписка «Про» 🌍",
            Price: 49966,
            Quantity: 3,
            Amount: 149898,
            Tax: "vat122",
            PaymentMethod: "full_prepayment",
            PaymentObject: "service",
          },
          {
            Name: "Half a unit",
            Price: 2,
            Quantity: 0.5,
            Amount: 1,
            Tax: "none",
            PaymentMethod: "full_payment",
            PaymentObject: "commodity",
          },
        ],
      },
    });
  });

  it("maps each tax system, VAT code and payment mode to T-Bank's value", () => {
    const taxations = [1, 2, 3, 4, 5, 6].map((code) => {
      const mapped = toTBankReceipt(receiptOf([item()], { taxSystemCode: code }));
      return "ok" in mapped ? mapped.ok.Taxation : mapped.refused;
    });
    expect(taxations).toEqual([
      "osn",
      "usn_income",
      "usn_income_outcome",
      expect.stringContaining("envd"),
      "esn",
      "patent",
    ]);
    const taxes = Array.from({ length: 12 }, (_, index) => {
      const mapped = toTBankReceipt(receiptOf([item({ vatCode: index + 1 })]));
      return "ok" in mapped ? mapped.ok.Items[0]?.Tax : mapped.refused;
    });
    expect(taxes.join(" ")).toBe("none vat0 vat10 vat20 vat110 vat120 vat5 vat7 vat105 vat107 vat22 vat122");
    const partial = toTBankReceipt(receiptOf([item({ paymentMode: "partial_prepayment" })]));
    expect("ok" in partial && partial.ok.Items[0]?.PaymentMethod).toBe("prepayment");
  });

  it("refuses what T-Bank cannot print rather than guessing: no tax system, an FFD 1.2 subject, 6 whole digits of quantity", () => {
    expect(toTBankReceipt(receiptOf([item()], { taxSystemCode: null }))).toEqual({
      refused: expect.stringContaining("taxSystemCode"),
    });
    expect(toTBankReceipt(receiptOf([item({ paymentSubject: "marked" })]))).toEqual({
      refused: expect.stringContaining("receipt item 0: paymentSubject marked"),
    });
    expect(
      toTBankReceipt(receiptOf([item({ quantity: "100000", amount: { amount: "1", currency: "RUB" } })])),
    ).toEqual({ refused: expect.stringContaining("5 whole digits") });
  });

  it("keeps amounts exact: each Amount is Price × Quantity in whole kopecks, computed in bigint, and they add up", () => {
    const line = fc.record({
      whole: fc.integer({ min: 0, max: 99_999 }),
      thousandths: fc.integer({ min: 0, max: 999 }),
      price: fc.bigInt({ min: 0n, max: 99_999n }),
    });
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 20 }), (lines) => {
        const items = lines
          .filter((l) => l.whole > 0 || l.thousandths > 0)
          .map((l) => {
            // Round the price so the line is whole kopecks, as Kopek's validation requires.
            const thousandths = BigInt(l.whole * 1000 + l.thousandths);
            const price = thousandths % 1000n === 0n ? l.price : l.price * 1000n;
            const quantity = `${l.whole}.${String(l.thousandths).padStart(3, "0")}`;
            return {
              item: item({ quantity, amount: { amount: price.toString(), currency: "RUB" } }),
              price,
              thousandths,
            };
          });
        fc.pre(items.length > 0);
        const mapped = toTBankReceipt(receiptOf(items.map((entry) => entry.item)));
        if (!("ok" in mapped)) return; // beyond 10 digits of kopecks: refused, tested above
        let total = 0n;
        mapped.ok.Items.forEach((sent, index) => {
          const entry = items[index];
          if (entry === undefined) throw new Error("an item too many");
          const expected = (entry.price * entry.thousandths) / 1000n;
          expect(Number.isSafeInteger(sent.Amount) && Number.isSafeInteger(sent.Price)).toBe(true);
          expect(BigInt(sent.Amount)).toBe(expected);
          expect(BigInt(sent.Price)).toBe(entry.price);
          expect(sent.Quantity).toBe(Number(entry.item.quantity));
          total += BigInt(sent.Amount);
        });
        const summed = items.reduce((sum, entry) => sum + (entry.price * entry.thousandths) / 1000n, 0n);
        expect(total).toBe(summed);
      }),
    );
  });
});
