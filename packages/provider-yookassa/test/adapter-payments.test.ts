import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startYooKassaEmulator, type YooKassaEmulator } from "./emulator.js";
import { paymentRequest, providerFor, randomKey } from "./harness.js";

let emulator: YooKassaEmulator;
beforeAll(async () => {
  emulator = await startYooKassaEmulator();
});
afterAll(() => emulator.close());

const lastBodyOf = (id: string) => emulator.books.payments.get(id) ?? {};

describe("createPayment and getPayment against the emulator", () => {
  it("sends the amount in major units, capture, redirect, the method type and Kopek's id, and answers pending", async () => {
    const provider = providerFor(emulator);
    const request = paymentRequest({ method: "sbp", money: { amount: "149901", currency: "RUB" } });
    const created = (await provider.createPayment(request))._unsafeUnwrap();
    expect(created).toMatchObject({ status: "pending", failureCode: null, methodMask: null });
    expect(created.confirmationUrl).toBe(`${emulator.url}/checkout/${created.providerPaymentId}`);
    const stored = lastBodyOf(created.providerPaymentId);
    expect(stored.amount).toEqual({ value: "1499.01", currency: "RUB" });
    expect(stored.metadata).toEqual({ kopekPaymentId: request.paymentId });
    expect(stored.payment_method).toMatchObject({ type: "sbp" });
    expect(stored.capture).toBe(true);
  });

  it("truncates a long description to YooKassa's 128 characters", async () => {
    const provider = providerFor(emulator);
    const created = (
      await provider.createPayment(paymentRequest({ description: "ж".repeat(300) }))
    )._unsafeUnwrap();
    expect(Array.from(String(lastBodyOf(created.providerPaymentId).description))).toHaveLength(128);
  });

  it("reads a paid card payment as succeeded with the card's mask, and no saved method when none was asked", async () => {
    const provider = providerFor(emulator);
    const request = paymentRequest();
    const created = (await provider.createPayment(request))._unsafeUnwrap();
    emulator.books.decide(created.providerPaymentId, { card: "2200701234561234" });
    expect((await provider.getPayment(created.providerPaymentId))._unsafeUnwrap()).toEqual({
      providerPaymentId: created.providerPaymentId,
      status: "succeeded",
      failureCode: null,
      methodMask: "2200 70** **** 1234",
      savedMethod: null,
      money: { amount: "149900", currency: "RUB" },
      kopekPaymentId: request.paymentId,
    });
  });

  it.each([
    ["5555555555550001", "payment_declined"],
    ["5555555555550003", "payment_declined"],
  ])("maps a decline with card %s to %s", async (card, failureCode) => {
    const provider = providerFor(emulator);
    const created = (await provider.createPayment(paymentRequest()))._unsafeUnwrap();
    emulator.books.decide(created.providerPaymentId, { card });
    const checked = (await provider.getPayment(created.providerPaymentId))._unsafeUnwrap();
    expect(checked).toMatchObject({ status: "canceled", failureCode });
  });

  it("maps a payer who never confirmed to expired", async () => {
    const provider = providerFor(emulator);
    const created = (await provider.createPayment(paymentRequest()))._unsafeUnwrap();
    emulator.books.expire(created.providerPaymentId);
    const checked = (await provider.getPayment(created.providerPaymentId))._unsafeUnwrap();
    expect(checked).toMatchObject({ status: "canceled", failureCode: "expired" });
  });

  it("derives a stable Idempotence-Key of 64 characters from a longer key", async () => {
    const provider = providerFor(emulator);
    const request = paymentRequest({ idempotencyKey: `invoice:${"x".repeat(120)}` });
    const first = (await provider.createPayment(request))._unsafeUnwrap();
    const second = (await provider.createPayment(request))._unsafeUnwrap();
    expect(second.providerPaymentId).toBe(first.providerPaymentId);
    const sent = emulator.requests.filter((r) => r.method === "POST").at(-1)?.idempotenceKey ?? "";
    expect(sent).toHaveLength(64);
  });

  it("refuses another currency before asking YooKassa", async () => {
    const provider = providerFor(emulator);
    const result = await provider.createPayment(
      paymentRequest({ money: { amount: "100", currency: "USD" } }),
    );
    expect(result._unsafeUnwrapErr()).toMatchObject({ code: "failed" });
  });

  it("explains bad credentials, and never puts the secret key in a message", async () => {
    const provider = providerFor(emulator, { secretKey: "test_wrong_secret_key_value" });
    const error = (await provider.createPayment(paymentRequest()))._unsafeUnwrapErr();
    expect(error.code).toBe("failed");
    expect(error.message).toMatch(/credentials/);
    expect(error.message).not.toContain("test_wrong_secret_key_value");
    expect(error.message).not.toContain(emulator.secretKey);
  });

  it("cannot cancel a pending capture: true payment, and says why", async () => {
    const provider = providerFor(emulator);
    expect(provider.capabilities.cancelPending).toBe(false);
    const created = (await provider.createPayment(paymentRequest()))._unsafeUnwrap();
    const error = (
      await provider.cancelPayment({
        providerPaymentId: created.providerPaymentId,
        idempotencyKey: randomKey(),
      })
    )._unsafeUnwrapErr();
    expect(error.code).toBe("failed");
    expect(error.message).toMatch(/waiting_for_capture/);
  });
});

describe("stored methods against the emulator", () => {
  it("describes a saved card by the saved method's own id", async () => {
    const ref = emulator.books.seedSavedMethod({ card: "5555551234564477" });
    const description = (
      await providerFor(emulator).describeStoredMethod({ ref, method: "card" })
    )._unsafeUnwrap();
    expect(description).toEqual({ kind: "card", first6: "555555", last4: "4477", length: 16 });
  });

  it("saves an SBP account at checkout and describes it by YooKassa's title, having no card", async () => {
    const provider = providerFor(emulator);
    expect(provider.capabilities.saveMethod).toEqual(["card", "sbp"]);
    const created = (await provider.createPayment(paymentRequest({ method: "sbp" })))._unsafeUnwrap();
    const payment = emulator.books.payments.get(created.providerPaymentId);
    if (payment !== undefined) payment.save_payment_method = true;
    emulator.books.decide(created.providerPaymentId, { card: "5555555555554477" });
    const ref = (await provider.getPayment(created.providerPaymentId))._unsafeUnwrap().savedMethod?.ref ?? "";
    expect((await provider.describeStoredMethod({ ref, method: "sbp" }))._unsafeUnwrap()).toEqual({
      kind: "masked",
      mask: "SBP",
    });
  });

  it("charges a saved card without a confirmation: succeeded, canceled as declined, or pending", async () => {
    const provider = providerFor(emulator);
    const charge = (ref: string) =>
      provider.chargeStoredMethod({
        paymentId: globalThis.crypto.randomUUID(),
        ref,
        method: "card",
        money: { amount: "99900", currency: "RUB" },
        description: "Renewal",
        receipt: null,
        idempotencyKey: randomKey(),
      });
    const approved = (await charge(emulator.books.seedSavedMethod()))._unsafeUnwrap();
    expect(approved).toMatchObject({
      status: "succeeded",
      failureCode: null,
      methodMask: "5555 55** **** 4477",
    });
    const declinedRef = emulator.books.seedSavedMethod({ outcome: { decline: "insufficient_funds" } });
    expect((await charge(declinedRef))._unsafeUnwrap()).toMatchObject({
      status: "canceled",
      failureCode: "payment_declined",
    });
    const revokedRef = emulator.books.seedSavedMethod({ outcome: { decline: "permission_revoked" } });
    expect((await charge(revokedRef))._unsafeUnwrap()).toMatchObject({ failureCode: "canceled_by_payer" });
    const pending = (await charge(emulator.books.seedSavedMethod({ outcome: "pending" })))._unsafeUnwrap();
    expect(pending.status).toBe("pending");
    expect(emulator.books.payments.get(approved.providerPaymentId)?.confirmation).toBeUndefined();
  });

  it("charges only the methods the options allow", async () => {
    const provider = providerFor(emulator, { storedMethods: ["card"] });
    const result = await provider.chargeStoredMethod({
      paymentId: globalThis.crypto.randomUUID(),
      ref: emulator.books.seedSavedMethod(),
      method: "sbp",
      money: { amount: "100", currency: "RUB" },
      description: "x",
      receipt: null,
      idempotencyKey: randomKey(),
    });
    expect(result._unsafeUnwrapErr().code).toBe("failed");
  });
});
