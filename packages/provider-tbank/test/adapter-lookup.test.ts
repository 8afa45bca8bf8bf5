import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { orderIdOf, savingOrderIdOf } from "../src/order-id.js";
import { EMULATOR_SUCCESS_CARD, startTBankEmulator, type TBankEmulator } from "./emulator.js";
import { chargeRequest, paymentRequest, providerFor, randomKey } from "./harness.js";

// findPaymentByKey against the emulator's CheckOrder: which order a key names, which of its payments
// tells the outcome, and when T-Bank's answer is no answer.
let emulator: TBankEmulator;
let emptyAnswering: TBankEmulator;
beforeAll(async () => {
  emulator = await startTBankEmulator();
  emptyAnswering = await startTBankEmulator({ unknownOrder: "empty" });
});
afterAll(async () => {
  await emulator.close();
  await emptyAnswering.close();
});

const lookupOf = (request: { idempotencyKey: string; paymentId: string }) => ({
  idempotencyKey: request.idempotencyKey,
  paymentId: request.paymentId,
  createdAt: new Date(),
});
const pay = (url: string) =>
  fetch(url, {
    method: "POST",
    body: new URLSearchParams({ outcome: "pay", card: EMULATOR_SUCCESS_CARD }),
    redirect: "manual",
  });

describe("findPaymentByKey (T-Bank)", () => {
  it("finds a charge whose answer was lost after T-Bank charged it: succeeded, never null", async () => {
    const provider = providerFor(emulator, { maxRetries: 0, timeoutMs: 300 });
    const request = chargeRequest(emulator.books.seedSavedCard());
    emulator.failNext(1, "timeout", { afterProcessing: true, method: "Charge" });
    expect((await provider.chargeStoredMethod(request))._unsafeUnwrapErr().code).toBe("unavailable");
    const [charged] = emulator.books.paymentsOf(orderIdOf(request.idempotencyKey));
    const found = (await provider.findPaymentByKey(lookupOf(request)))._unsafeUnwrap();
    expect(found).toMatchObject({ providerPaymentId: charged?.PaymentId, status: "succeeded" });
  });

  it("finds a paid payment that saved a card by its saving order, with the card", async () => {
    const provider = providerFor(emulator);
    const request = paymentRequest({ saveMethod: true });
    const created = (await provider.createPayment(request))._unsafeUnwrap();
    expect(emulator.books.paymentsOf(savingOrderIdOf(request.idempotencyKey))).toHaveLength(1);
    await pay(created.confirmationUrl);
    const found = (await provider.findPaymentByKey(lookupOf(request)))._unsafeUnwrap();
    expect(found).toMatchObject({ providerPaymentId: created.providerPaymentId, status: "succeeded" });
    expect(found?.savedMethod?.ref).toMatch(/^s1-[0-9a-f]{33}:[0-9]+$/);
  });

  it("answers the order's live payment when an earlier one of the order was canceled", async () => {
    const provider = providerFor(emulator);
    const request = paymentRequest();
    // Init's answer is lost: the retry cancels that payment and makes the order's payment again.
    emulator.failNext(1, "500", { afterProcessing: true, method: "Init" });
    const created = (await provider.createPayment(request))._unsafeUnwrap();
    const statuses = emulator.books.paymentsOf(orderIdOf(request.idempotencyKey)).map((p) => p.Status);
    expect(statuses).toEqual(["CANCELED", "NEW"]);
    const found = (await provider.findPaymentByKey(lookupOf(request)))._unsafeUnwrap();
    expect(found).toMatchObject({ providerPaymentId: created.providerPaymentId, status: "pending" });
  });

  it("finds the payment an SBP binding made for the key in this process", async () => {
    const provider = providerFor(emulator, { storedMethods: ["sbp"] });
    const request = paymentRequest({ method: "sbp", saveMethod: true });
    const created = (await provider.createPayment(request))._unsafeUnwrap();
    const found = (await provider.findPaymentByKey(lookupOf(request)))._unsafeUnwrap();
    expect(found).toMatchObject({ providerPaymentId: created.providerPaymentId, status: "pending" });
  });

  it("answers null for an order T-Bank does not know, whether it answers error 335 or no payments", async () => {
    for (const target of [emulator, emptyAnswering]) {
      const start = target.requests.length;
      const lookup = lookupOf({ idempotencyKey: randomKey(), paymentId: globalThis.crypto.randomUUID() });
      expect((await providerFor(target).findPaymentByKey(lookup))._unsafeUnwrap()).toBeNull();
      const asked = target.requests.slice(start).map((request) => request.body.OrderId);
      expect(asked).toEqual([orderIdOf(lookup.idempotencyKey), savingOrderIdOf(lookup.idempotencyKey)]);
    }
  });

  it("answers failed, never null, when T-Bank refuses the request itself", async () => {
    const provider = providerFor(emulator, { password: "not-the-terminal-password" });
    const lookup = lookupOf({ idempotencyKey: randomKey(), paymentId: globalThis.crypto.randomUUID() });
    const error = (await provider.findPaymentByKey(lookup))._unsafeUnwrapErr();
    expect(error).toMatchObject({ code: "failed", message: expect.stringContaining("204") });
  });

  it("answers failed when CheckOrder's answer is not as documented", async () => {
    emulator.failNext(1, "garbled", { method: "CheckOrder" });
    const lookup = lookupOf({ idempotencyKey: randomKey(), paymentId: globalThis.crypto.randomUUID() });
    const error = (await providerFor(emulator).findPaymentByKey(lookup))._unsafeUnwrapErr();
    expect(error).toMatchObject({ code: "failed", message: expect.stringContaining("unexpected shape") });
  });

  it("answers unavailable when T-Bank does not answer", async () => {
    emulator.failNext(1, "500", { method: "CheckOrder" });
    const lookup = lookupOf({ idempotencyKey: randomKey(), paymentId: globalThis.crypto.randomUUID() });
    const error = (
      await providerFor(emulator, { maxRetries: 0 }).findPaymentByKey(lookup)
    )._unsafeUnwrapErr();
    expect(error.code).toBe("unavailable");
    expect(error.message).not.toContain(emulator.password);
  });
});
