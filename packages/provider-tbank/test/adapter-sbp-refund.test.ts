import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTBankEmulator, type TBankEmulator } from "./emulator.js";
import { paidSbpPayment, paymentRequest, providerFor, randomKey, refundRequestOf } from "./harness.js";

// [T] Cancel.ExternalRequestId: a repeat with the same id answers the operation instead of refunding
// again — but "Параметр не работает для операций по СБП". The emulator models exactly that, so a Cancel
// repeated after a lost answer refunds an SBP payment twice.
let emulator: TBankEmulator;
beforeAll(async () => {
  emulator = await startTBankEmulator();
});
afterAll(() => emulator.close());

describe("an SBP refund whose answer is lost", () => {
  it("is never sent again blindly: GetState shows it went through, and 500.00 of 1000.00 is returned, not 1000.00", async () => {
    // 1.5 s: the lost Cancel costs one time-out, and the GetState after it must not time out too on a
    // busy machine (500 ms did once, beside a typecheck of every package).
    const provider = providerFor(emulator, { maxRetries: 3, timeoutMs: 1500 });
    const paymentId = await paidSbpPayment(emulator, provider);
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

// Kopek's reconciler may run in another process (`kopek worker`, a second `kopek serve`) or after a
// restart: a fresh adapter, which never heard of the Cancel sent before, asked with `mayHaveBeenSent`.
describe("an SBP refund asked again by another process after its answer was lost", () => {
  const refundsOf = (paymentId: string) =>
    emulator.books.refunds.filter((entry) => entry.PaymentId === paymentId);

  /** The first process sends the Cancel, T-Bank makes the refund, and the answer is lost with the process. */
  async function lostCancel(refund: ReturnType<typeof refundRequestOf>) {
    emulator.failNext(1, "500", { afterProcessing: true, method: "Cancel" });
    await providerFor(emulator, { maxRetries: 0 }).refundPayment(refund);
    expect(refundsOf(refund.providerPaymentId)).toHaveLength(1);
  }

  it("a part is never sent again: no answer, an operator is pointed to T-Bank's dashboard, and 500.00 is returned once", async () => {
    const paymentId = await paidSbpPayment(emulator);
    const refund = refundRequestOf(paymentId, "50000");
    await lostCancel(refund);
    const start = emulator.requests.length;
    const again = await providerFor(emulator).refundPayment({ ...refund, mayHaveBeenSent: true });
    expect(again._unsafeUnwrapErr()).toMatchObject({
      code: "unavailable",
      message: expect.stringContaining("T-Bank's dashboard"),
    });
    expect(emulator.requests.slice(start).map((request) => request.method)).not.toContain("Cancel");
    expect(refundsOf(paymentId).map((entry) => entry.Amount)).toEqual([50000]);
  });

  it("a refund of the whole payment is read from GetState (REFUNDED, its amount): succeeded, refunded once", async () => {
    const paymentId = await paidSbpPayment(emulator);
    const refund = refundRequestOf(paymentId, "100000");
    await lostCancel(refund);
    const again = await providerFor(emulator).refundPayment({ ...refund, mayHaveBeenSent: true });
    expect(again._unsafeUnwrap()).toMatchObject({ status: "succeeded", money: { amount: "100000" } });
    expect(refundsOf(paymentId).map((entry) => entry.Amount)).toEqual([100000]);
  });

  it("a card refund is sent again: ExternalRequestId answers the first refund, made once", async () => {
    const provider = providerFor(emulator);
    const created = (await provider.createPayment(paymentRequest()))._unsafeUnwrap();
    emulator.books.decide(created.providerPaymentId, { card: "4300000000000777" });
    const refund = refundRequestOf(created.providerPaymentId, "50000");
    await lostCancel(refund);
    const again = await providerFor(emulator).refundPayment({ ...refund, mayHaveBeenSent: true });
    expect(again._unsafeUnwrap().status).toBe("succeeded");
    expect(refundsOf(created.providerPaymentId)).toHaveLength(1);
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
