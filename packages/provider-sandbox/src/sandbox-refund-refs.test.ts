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

  it("makes the refund of a sandbox_refund_lost_answer charge and loses that answer; the key again answers it, once", async () => {
    const { sandbox, providerPaymentId } = await chargeWith("sandbox_refund_lost_answer_card");
    const key = crypto.randomUUID();
    const lost = await sandbox.refundPayment(refundOf(providerPaymentId, key));
    expect(lost._unsafeUnwrapErr().code).toBe("unavailable");
    const answered = (await sandbox.refundPayment(refundOf(providerPaymentId, key)))._unsafeUnwrap();
    expect(answered.status).toBe("succeeded");
    // One refund of 40.00 was made: 60.00 remains, not 20.00.
    const rest = { ...refundOf(providerPaymentId), money: { amount: "6001", currency: "RUB" } };
    expect((await sandbox.refundPayment(rest)).isErr()).toBe(true);
    expect(
      (await sandbox.refundPayment({ ...rest, money: { amount: "6000", currency: "RUB" } })).isErr(),
    ).toBe(
      true, // lost again: made, then its answer lost
    );
  });
});

describe("sandbox lost-answer charges", () => {
  it("charges a sandbox_lost_answer ref once and loses the answer; the same key answers the charge", async () => {
    const sandbox = createSandboxProvider();
    const charge = {
      paymentId: crypto.randomUUID(),
      ref: "sandbox_lost_answer_card",
      method: "card" as const,
      money,
      description: "lost answer",
      receipt: null,
      idempotencyKey: crypto.randomUUID(),
    };
    expect((await sandbox.chargeStoredMethod(charge))._unsafeUnwrapErr().code).toBe("unavailable");
    const found = (await sandbox.findPaymentByKey({ ...charge, createdAt: new Date(0) }))._unsafeUnwrap();
    expect(found?.status).toBe("succeeded");
    const again = (await sandbox.chargeStoredMethod(charge))._unsafeUnwrap();
    expect(again).toMatchObject({ status: "succeeded", providerPaymentId: found?.providerPaymentId });
    expect(sandbox.ledger.charges()).toHaveLength(1);
  });
});
