import { describe, expect, it } from "vitest";
import { createSandboxProvider } from "./sandbox-provider.js";

const money = { amount: "10000", currency: "RUB" };

async function chargeWith(ref: string) {
  const sandbox = createSandboxProvider();
  const charge = await sandbox.chargeStoredMethod({
    paymentId: crypto.randomUUID(),
    ref,
    method: "card",
    money,
    description: "refund refs",
    receipt: null,
    idempotencyKey: crypto.randomUUID(),
  });
  return { sandbox, providerPaymentId: charge._unsafeUnwrap().providerPaymentId };
}

const refundOf = (providerPaymentId: string, idempotencyKey = crypto.randomUUID()) => ({
  refundId: crypto.randomUUID(),
  providerPaymentId,
  money: { amount: "4000", currency: "RUB" },
  reason: null,
  idempotencyKey,
});

describe("sandbox refund refs", () => {
  it("refuses every refund of a sandbox_refund_fail charge, which keeps its whole amount", async () => {
    const { sandbox, providerPaymentId } = await chargeWith("sandbox_refund_fail_card");
    const refused = (await sandbox.refundPayment(refundOf(providerPaymentId)))._unsafeUnwrap();
    expect(refused.status).toBe("canceled");
    expect((await sandbox.getRefund(refused.providerRefundId))._unsafeUnwrap().status).toBe("canceled");
    const all = { ...refundOf(providerPaymentId), money };
    expect((await sandbox.refundPayment(all))._unsafeUnwrap().status).toBe("canceled");
  });

  it("answers a refund of a sandbox_refund_pending charge pending, then succeeded when asked", async () => {
    const { sandbox, providerPaymentId } = await chargeWith("sandbox_refund_pending_card");
    const key = crypto.randomUUID();
    const pending = (await sandbox.refundPayment(refundOf(providerPaymentId, key)))._unsafeUnwrap();
    expect(pending.status).toBe("pending");
    // It holds its amount meanwhile: no more than the rest can be refunded.
    const tooMuch = { ...refundOf(providerPaymentId), money: { amount: "6001", currency: "RUB" } };
    expect((await sandbox.refundPayment(tooMuch)).isErr()).toBe(true);
    expect((await sandbox.getRefund(pending.providerRefundId))._unsafeUnwrap().status).toBe("succeeded");
    // The same key answers the same refund, as it stands now.
    expect((await sandbox.refundPayment(refundOf(providerPaymentId, key)))._unsafeUnwrap()).toMatchObject({
      providerRefundId: pending.providerRefundId,
      status: "succeeded",
    });
  });

  it("refunds any other charge at once", async () => {
    const { sandbox, providerPaymentId } = await chargeWith("pm_plain_card");
    expect((await sandbox.refundPayment(refundOf(providerPaymentId)))._unsafeUnwrap().status).toBe(
      "succeeded",
    );
  });
});
