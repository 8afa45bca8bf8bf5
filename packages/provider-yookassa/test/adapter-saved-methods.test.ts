import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startYooKassaEmulator, type YooKassaEmulator } from "./emulator.js";
import { paymentRequest, providerFor, randomKey } from "./harness.js";

// A saved method has an id of its own (payment_method.id), not the id of the payment that saved it
// (yookassa.ru/developers/api: PaymentMethod.id, SavePaymentMethod.id, GET /payment_methods/{id}).
let emulator: YooKassaEmulator;
beforeAll(async () => {
  emulator = await startYooKassaEmulator();
});
afterAll(() => emulator.close());

const charge = (ref: string) => ({
  paymentId: globalThis.crypto.randomUUID(),
  ref,
  method: "card" as const,
  money: { amount: "99900", currency: "RUB" },
  description: "Renewal",
  receipt: null,
  idempotencyKey: randomKey(),
});

describe("a card saved at checkout, then described and charged by its own id", () => {
  it("reads the method's id from the payment, describes it with GET /payment_methods/{id} and charges it", async () => {
    const provider = providerFor(emulator);
    const created = (await provider.createPayment(paymentRequest({ saveMethod: true })))._unsafeUnwrap();
    emulator.books.decide(created.providerPaymentId, { card: "5555551234564477" });
    const paid = (await provider.getPayment(created.providerPaymentId))._unsafeUnwrap();
    const ref = paid.savedMethod?.ref ?? "";
    expect(ref).not.toBe("");
    expect(ref).not.toBe(created.providerPaymentId);

    const start = emulator.requests.length;
    expect((await provider.describeStoredMethod({ ref, method: "card" }))._unsafeUnwrap()).toEqual({
      kind: "card",
      first6: "555555",
      last4: "4477",
      length: 16,
    });
    expect(emulator.requests.slice(start).map((r) => `${r.method} ${r.path}`)).toEqual([
      `GET /v3/payment_methods/${ref}`,
    ]);
    const charged = (await provider.chargeStoredMethod(charge(ref)))._unsafeUnwrap();
    expect(charged).toMatchObject({ status: "succeeded", methodMask: "5555 55** **** 4477" });
    expect(emulator.books.payments.get(charged.providerPaymentId)?.payment_method).toMatchObject({
      id: ref,
      saved: true,
      status: "active",
    });
  });

  it("refuses to describe the id of the payment that saved a method, and a method that was not saved", async () => {
    const provider = providerFor(emulator);
    const created = (await provider.createPayment(paymentRequest({ saveMethod: true })))._unsafeUnwrap();
    emulator.books.decide(created.providerPaymentId, { card: "5555551234564477" });
    const byPaymentId = await provider.describeStoredMethod({
      ref: created.providerPaymentId,
      method: "card",
    });
    expect(byPaymentId._unsafeUnwrapErr()).toMatchObject({ code: "failed", message: /404 not_found/ });
    expect(byPaymentId._unsafeUnwrapErr().message).not.toContain(created.providerPaymentId);
    // A payment without save_payment_method: its method is inactive and cannot be charged.
    const unsaved = (await provider.createPayment(paymentRequest()))._unsafeUnwrap();
    emulator.books.decide(unsaved.providerPaymentId, { card: "5555551234564477" });
    const method = emulator.books.payments.get(unsaved.providerPaymentId)?.payment_method as { id: string };
    expect((await provider.chargeStoredMethod(charge(method.id)))._unsafeUnwrapErr().code).toBe("failed");
  });
});
