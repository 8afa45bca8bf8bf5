import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTBankEmulator, type TBankEmulator } from "./emulator.js";
import { paymentRequest, providerFor, randomKey } from "./harness.js";

// [T] Cancel.ExternalRequestId: a repeat with the same id answers the operation instead of refunding
// again — but "Параметр не работает для операций по СБП". The emulator models exactly that, so a Cancel
// repeated after a lost answer refunds an SBP payment twice.
let emulator: TBankEmulator;
beforeAll(async () => {
  emulator = await startTBankEmulator();
});
afterAll(() => emulator.close());

async function paidSbpPayment(provider: ReturnType<typeof providerFor>) {
  const created = (
    await provider.createPayment(
      paymentRequest({ method: "sbp", money: { amount: "100000", currency: "RUB" } }),
    )
  )._unsafeUnwrap();
  emulator.books.decide(created.providerPaymentId, { card: "4300000000000777" });
  return created.providerPaymentId;
}

describe("an SBP refund whose answer is lost", () => {
  it("is never sent again blindly: GetState shows it went through, and 500.00 of 1000.00 is returned, not 1000.00", async () => {
    const provider = providerFor(emulator, { maxRetries: 3, timeoutMs: 500 });
    const paymentId = await paidSbpPayment(provider);
    emulator.failNext(1, "timeout", { afterProcessing: true, method: "Cancel" });
    const refund = {
      providerPaymentId: paymentId,
      money: { amount: "50000", currency: "RUB" },
      idempotencyKey: randomKey(),
      refundId: globalThis.crypto.randomUUID(),
      reason: null,
      receipt: null,
    };
    const answered = await provider.refundPayment(refund);
    const returned = emulator.books.refunds.filter((entry) => entry.PaymentId === paymentId);
    expect(returned.reduce((sum, entry) => sum + entry.Amount, 0)).toBe(50000);
    expect(answered._unsafeUnwrap()).toMatchObject({ status: "succeeded", money: { amount: "50000" } });
    // Asked again with the same key (core's retry), it is still one refund.
    expect((await provider.refundPayment(refund))._unsafeUnwrap().status).toBe("succeeded");
    expect(emulator.books.refunds.filter((entry) => entry.PaymentId === paymentId)).toHaveLength(1);
  });

  it("a card refund still relies on ExternalRequestId, which T-Bank honours for cards: retried, refunded once", async () => {
    const provider = providerFor(emulator, { maxRetries: 3, timeoutMs: 500 });
    const created = (await provider.createPayment(paymentRequest()))._unsafeUnwrap();
    emulator.books.decide(created.providerPaymentId, { card: "4300000000000777" });
    emulator.failNext(1, "timeout", { afterProcessing: true, method: "Cancel" });
    const answered = await provider.refundPayment({
      providerPaymentId: created.providerPaymentId,
      money: { amount: "50000", currency: "RUB" },
      idempotencyKey: randomKey(),
      refundId: globalThis.crypto.randomUUID(),
      reason: null,
      receipt: null,
    });
    expect(answered._unsafeUnwrap().status).toBe("succeeded");
    expect(
      emulator.books.refunds.filter((entry) => entry.PaymentId === created.providerPaymentId),
    ).toHaveLength(1);
  });
});

describe("a refund's status", () => {
  it("comes from its own Cancel's answer: one answered done is succeeded without reading the payment's status", async () => {
    const provider = providerFor(emulator);
    const created = (await provider.createPayment(paymentRequest()))._unsafeUnwrap();
    emulator.books.decide(created.providerPaymentId, { card: "4300000000000777" });
    const refund = (
      await provider.refundPayment({
        providerPaymentId: created.providerPaymentId,
        money: { amount: "40000", currency: "RUB" },
        idempotencyKey: randomKey(),
        refundId: globalThis.crypto.randomUUID(),
        reason: null,
        receipt: null,
      })
    )._unsafeUnwrap();
    expect(refund.providerRefundId).toMatch(/^r2:[0-9]+:40000:s:/);
    const start = emulator.requests.length;
    expect((await provider.getRefund(refund.providerRefundId))._unsafeUnwrap()).toMatchObject({
      status: "succeeded",
      money: { amount: "40000", currency: "RUB" },
    });
    expect(emulator.requests.slice(start).map((request) => request.method)).toEqual([]);
  });
});
