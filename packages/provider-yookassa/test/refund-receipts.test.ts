import { partialRefundReceipt, type Receipt } from "@kopek/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startYooKassaEmulator, type YooKassaEmulator } from "./emulator.js";
import { paymentRequest, providerFor, randomKey } from "./harness.js";

// Refund receipts as YooKassa documents them
// (yookassa.ru/developers/payment-acceptance/receipts/54fz/yoomoney/refunds): a full refund passes no
// receipt (YooKassa takes the payment's); a partial refund of a payment sent with a receipt passes the
// returned goods in `receipt`. The emulator refuses a partial refund without one.

let emulator: YooKassaEmulator;
beforeAll(async () => {
  emulator = await startYooKassaEmulator();
});
afterAll(() => emulator.close());

/** 1499.00 RUB: 2 × 500.00 and 1 × 499.00. */
const receipt: Receipt = {
  customer: { email: "buyer@example.com", phone: null },
  taxSystemCode: null,
  items: [
    {
      description: "Coffee beans, 1 kg",
      quantity: "2",
      amount: { amount: "50000", currency: "RUB" },
      vatCode: 1,
      paymentSubject: "commodity",
      paymentMode: "full_payment",
    },
    {
      description: "Delivery",
      quantity: "1",
      amount: { amount: "49900", currency: "RUB" },
      vatCode: 2,
      paymentSubject: "service",
      paymentMode: "full_payment",
    },
  ],
};

async function paidWithReceipt(withReceipt = true) {
  const provider = providerFor(emulator);
  const money = { amount: "149900", currency: "RUB" };
  const created = (
    await provider.createPayment(paymentRequest({ money, receipt: withReceipt ? receipt : null }))
  )._unsafeUnwrap();
  emulator.books.decide(created.providerPaymentId, { card: "5555555555554444" });
  return { provider, providerPaymentId: created.providerPaymentId };
}

const refundOf = (providerPaymentId: string, amount: string, refundReceipt: Receipt | null) => ({
  refundId: globalThis.crypto.randomUUID(),
  providerPaymentId,
  money: { amount, currency: "RUB" },
  reason: null,
  idempotencyKey: randomKey(),
  receipt: refundReceipt,
});

describe("refund receipts to YooKassa", () => {
  it("sends a partial refund's receipt mapped exactly; the emulator keeps it", async () => {
    const { provider, providerPaymentId } = await paidWithReceipt();
    // After 500.00 refunded before: the second bag and the delivery.
    const part = partialRefundReceipt(receipt, 50000n, 99900n);
    const refund = (await provider.refundPayment(refundOf(providerPaymentId, "99900", part)))._unsafeUnwrap();
    expect(refund.status).toBe("succeeded");
    expect(emulator.books.receipts.get(refund.providerRefundId)).toEqual({
      customer: { email: "buyer@example.com" },
      items: [
        {
          description: "Coffee beans, 1 kg",
          quantity: "1",
          amount: { value: "500.00", currency: "RUB" },
          vat_code: 1,
          payment_subject: "commodity",
          payment_mode: "full_payment",
        },
        {
          description: "Delivery",
          quantity: "1",
          amount: { value: "499.00", currency: "RUB" },
          vat_code: 2,
          payment_subject: "service",
          payment_mode: "full_payment",
        },
      ],
    });
  });

  it("the emulator refuses a partial refund without a receipt of a payment that had one, as YooKassa requires", async () => {
    const { provider, providerPaymentId } = await paidWithReceipt();
    const refused = await provider.refundPayment(refundOf(providerPaymentId, "49900", null));
    expect(refused._unsafeUnwrapErr()).toMatchObject({ code: "failed" });
    expect(refused._unsafeUnwrapErr().message).toMatch(/receipt/);
    expect(emulator.books.payments.get(providerPaymentId)?.refunded_amount).toEqual({
      value: "0.00",
      currency: "RUB",
    });
  });

  it("refuses a refund receipt whose items do not come to the refund", async () => {
    const { provider, providerPaymentId } = await paidWithReceipt();
    const wrong = partialRefundReceipt(receipt, 0n, 49900n);
    const refused = await provider.refundPayment(refundOf(providerPaymentId, "50000", wrong));
    expect(refused._unsafeUnwrapErr().message).toMatch(/receipt\.items/);
  });

  it("a full refund passes no receipt; a payment without a receipt is refunded in part without one", async () => {
    const full = await paidWithReceipt();
    const whole = (
      await full.provider.refundPayment(refundOf(full.providerPaymentId, "149900", null))
    )._unsafeUnwrap();
    expect(whole.status).toBe("succeeded");
    expect(emulator.books.receipts.has(whole.providerRefundId)).toBe(false);
    const plain = await paidWithReceipt(false);
    const part = await plain.provider.refundPayment(refundOf(plain.providerPaymentId, "100", null));
    expect(part._unsafeUnwrap().status).toBe("succeeded");
  });
});
