import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTBankEmulator, type TBankEmulator } from "./emulator.js";
import { paidSbpPayment, providerFor, refundRequestOf } from "./harness.js";

// [T]'s status REFUNDING: an SBP refund the payer's bank has not made yet. This emulator answers every
// SBP Cancel so, and the refund is done when GetState next reads the payment.
let emulator: TBankEmulator;
beforeAll(async () => {
  emulator = await startTBankEmulator({ sbpRefunds: "refunding" });
});
afterAll(() => emulator.close());

const refundsOf = (paymentId: string) =>
  emulator.books.refunds.filter((entry) => entry.PaymentId === paymentId);

describe("an SBP refund T-Bank answers REFUNDING", () => {
  it("is pending, and getRefund follows each refund to succeeded: two parts, 1000.00 returned once", async () => {
    const provider = providerFor(emulator);
    const paymentId = await paidSbpPayment(emulator);
    const first = (await provider.refundPayment(refundRequestOf(paymentId, "40000")))._unsafeUnwrap();
    expect(first).toMatchObject({ status: "pending", money: { amount: "40000" } });
    expect(first.providerRefundId).toMatch(/^r2:[0-9]+:40000:p:/);
    expect((await provider.getRefund(first.providerRefundId))._unsafeUnwrap().status).toBe("succeeded");
    const rest = (await provider.refundPayment(refundRequestOf(paymentId, "60000")))._unsafeUnwrap();
    expect(rest.status).toBe("pending");
    expect((await provider.getRefund(rest.providerRefundId))._unsafeUnwrap().status).toBe("succeeded");
    expect((await provider.getRefund(first.providerRefundId))._unsafeUnwrap().status).toBe("succeeded");
    expect(refundsOf(paymentId).map((entry) => entry.Amount)).toEqual([40000, 60000]);
  });

  it("of the whole payment, its answer lost, is settled by another process from GetState, never sent again", async () => {
    const paymentId = await paidSbpPayment(emulator);
    const refund = refundRequestOf(paymentId, "100000");
    emulator.failNext(1, "500", { afterProcessing: true, method: "Cancel" });
    await providerFor(emulator, { maxRetries: 0 }).refundPayment(refund);
    const again = await providerFor(emulator).refundPayment({ ...refund, mayHaveBeenSent: true });
    expect(again._unsafeUnwrap()).toMatchObject({ status: "succeeded", money: { amount: "100000" } });
    expect(refundsOf(paymentId).map((entry) => entry.Amount)).toEqual([100000]);
  });
});
