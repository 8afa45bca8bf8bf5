import type { Receipt, ReceiptItem, RefundRequest } from "@kopek/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toTBankReceipt } from "../src/receipt-mapping.js";
import { EMULATOR_SUCCESS_CARD, startTBankEmulator, type TBankEmulator } from "./emulator.js";
import { paymentRequest, providerFor, randomKey } from "./harness.js";

// Refund receipts on Cancel (developer.tbank.ru/eacq/api/cancel): core computes a partial refund's
// receipt (RefundRequest.receipt); the adapter sends it as Cancel's Receipt, mapped as Init's is, and
// none for a full refund.

let emulator: TBankEmulator;
beforeAll(async () => {
  emulator = await startTBankEmulator();
});
afterAll(() => emulator.close());

const item = (description: string, quantity: string, amount: string): ReceiptItem => ({
  description,
  quantity,
  amount: { amount, currency: "RUB" },
  vatCode: 1,
  paymentSubject: "commodity",
  paymentMode: "full_payment",
});
const receiptOf = (...items: ReceiptItem[]): Receipt => ({
  customer: { email: "buyer@example.com", phone: null },
  taxSystemCode: 1,
  items,
});
/** 2 × 30.00 ₽ of tea and 40.00 ₽ of delivery: 100.00 ₽. */
const PAID = receiptOf(item("Tea", "2", "3000"), item("Delivery", "1", "4000"));

const cancels = () => emulator.requests.filter((request) => request.method === "Cancel");

/** A paid payment of 100.00 ₽ with `PAID` as its receipt; answers its PaymentId. */
async function paidPayment(): Promise<string> {
  const provider = providerFor(emulator);
  const created = (
    await provider.createPayment(
      paymentRequest({ money: { amount: "10000", currency: "RUB" }, receipt: PAID }),
    )
  )._unsafeUnwrap();
  await fetch(created.confirmationUrl, {
    method: "POST",
    body: new URLSearchParams({ outcome: "pay", card: EMULATOR_SUCCESS_CARD }),
    redirect: "manual",
  });
  return created.providerPaymentId;
}

const refundOf = (providerPaymentId: string, amount: string, receipt: Receipt | null): RefundRequest => ({
  refundId: globalThis.crypto.randomUUID(),
  providerPaymentId,
  money: { amount, currency: "RUB" },
  reason: null,
  idempotencyKey: randomKey(),
  receipt,
});

describe("refund receipts on Cancel", () => {
  it("sends a partial refund's receipt as Cancel's Receipt, exactly as Init's mapping makes it, and T-Bank takes it", async () => {
    const provider = providerFor(emulator);
    const paymentId = await paidPayment();
    const returned = receiptOf(item("Tea", "1", "3000"));
    const refund = await provider.refundPayment(refundOf(paymentId, "3000", returned));
    expect(refund._unsafeUnwrap()).toMatchObject({ status: "succeeded", money: { amount: "3000" } });
    const sent = cancels().at(-1)?.body.Receipt;
    expect(sent).toEqual((toTBankReceipt(returned) as { ok: unknown }).ok);
    expect(sent).toEqual({
      FfdVersion: "1.05",
      Taxation: "osn",
      Email: "buyer@example.com",
      Items: [
        {
          Name: "Tea",
          Price: 3000,
          Quantity: 1,
          Amount: 3000,
          Tax: "none",
          PaymentMethod: "full_payment",
          PaymentObject: "commodity",
        },
      ],
    });
    expect(emulator.books.refunds.at(-1)).toEqual({
      PaymentId: paymentId,
      Amount: 3000,
      Status: "PARTIAL_REFUNDED",
      Receipt: sent,
    });
  });

  it("sends no Receipt for a refund of the whole payment, which T-Bank takes", async () => {
    const provider = providerFor(emulator);
    const paymentId = await paidPayment();
    const refund = await provider.refundPayment(refundOf(paymentId, "10000", null));
    expect(refund._unsafeUnwrap().status).toBe("succeeded");
    expect(cancels().at(-1)?.body).not.toHaveProperty("Receipt");
    expect(emulator.books.payments.get(paymentId)?.Status).toBe("REFUNDED");
  });

  it("refuses a refund receipt T-Bank cannot take (no tax system) before any Cancel, never dropping it", async () => {
    const provider = providerFor(emulator);
    const paymentId = await paidPayment();
    const before = cancels().length;
    const refused = await provider.refundPayment(
      refundOf(paymentId, "3000", { ...receiptOf(item("Tea", "1", "3000")), taxSystemCode: null }),
    );
    expect(refused._unsafeUnwrapErr()).toMatchObject({
      code: "failed",
      message: expect.stringContaining("taxSystemCode"),
    });
    expect(cancels()).toHaveLength(before);
    expect(emulator.books.payments.get(paymentId)?.refunded).toBe(0);
  });

  it("the emulator refuses a partial Cancel of a payment with a receipt that has none, or whose items are not the refund", async () => {
    const provider = providerFor(emulator);
    const paymentId = await paidPayment();
    const without = await provider.refundPayment(refundOf(paymentId, "3000", null));
    expect(without._unsafeUnwrapErr()).toMatchObject({
      code: "failed",
      message: expect.stringContaining("Receipt"),
    });
    const wrongTotal = await provider.refundPayment(
      refundOf(paymentId, "3000", receiptOf(item("Tea", "2", "3000"))),
    );
    expect(wrongTotal._unsafeUnwrapErr().message).toContain("Amount");
    expect(emulator.books.payments.get(paymentId)).toMatchObject({ refunded: 0, Status: "CONFIRMED" });
  });
});
