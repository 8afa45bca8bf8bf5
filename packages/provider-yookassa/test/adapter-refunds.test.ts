import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startYooKassaEmulator, type YooKassaEmulator } from "./emulator.js";
import { paymentRequest, providerFor, randomKey } from "./harness.js";

let emulator: YooKassaEmulator;
beforeAll(async () => {
  emulator = await startYooKassaEmulator();
});
afterAll(() => emulator.close());

async function paidPayment(amount = "250000") {
  const provider = providerFor(emulator);
  const created = (
    await provider.createPayment(paymentRequest({ money: { amount, currency: "RUB" } }))
  )._unsafeUnwrap();
  emulator.books.decide(created.providerPaymentId, { card: "5555555555554444" });
  return { provider, providerPaymentId: created.providerPaymentId };
}

const refundOf = (providerPaymentId: string, amount: string, idempotencyKey = randomKey()) => ({
  refundId: globalThis.crypto.randomUUID(),
  providerPaymentId,
  money: { amount, currency: "RUB" },
  reason: "Customer asked",
  idempotencyKey,
});

describe("refunds against the emulator", () => {
  it("refunds part of a payment exactly, and reads the refund back", async () => {
    const { provider, providerPaymentId } = await paidPayment();
    const refund = (await provider.refundPayment(refundOf(providerPaymentId, "100001")))._unsafeUnwrap();
    expect(refund).toMatchObject({
      providerPaymentId,
      status: "succeeded",
      money: { amount: "100001", currency: "RUB" },
    });
    expect(emulator.books.refunds.get(refund.providerRefundId)?.amount).toEqual({
      value: "1000.01",
      currency: "RUB",
    });
    expect((await provider.getRefund(refund.providerRefundId))._unsafeUnwrap()).toEqual(refund);
  });

  it("answers one key with one refund", async () => {
    const { provider, providerPaymentId } = await paidPayment();
    const request = refundOf(providerPaymentId, "1000");
    const first = (await provider.refundPayment(request))._unsafeUnwrap();
    const second = (await provider.refundPayment(request))._unsafeUnwrap();
    expect(second.providerRefundId).toBe(first.providerRefundId);
    expect(emulator.books.payments.get(providerPaymentId)?.refunded_amount).toEqual({
      value: "10.00",
      currency: "RUB",
    });
  });

  it("refuses a refund over what remains as failed", async () => {
    const { provider, providerPaymentId } = await paidPayment("10000");
    (await provider.refundPayment(refundOf(providerPaymentId, "6000")))._unsafeUnwrap();
    const error = (await provider.refundPayment(refundOf(providerPaymentId, "4001")))._unsafeUnwrapErr();
    expect(error.code).toBe("failed");
    expect(error.message).toMatch(/invalid_request/);
    expect((await provider.refundPayment(refundOf(providerPaymentId, "4000"))).isOk()).toBe(true);
  });

  it("reports an unknown refund as an error", async () => {
    expect((await providerFor(emulator).getRefund("no-such-refund")).isErr()).toBe(true);
  });
});
