import type { MethodSaveRequest, MethodSaves } from "@kopek/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { idempotenceKeyOf } from "../src/index.js";
import { EMULATOR_SUCCESS_CARD, startYooKassaEmulator, type YooKassaEmulator } from "./emulator.js";
import { providerFor, randomKey } from "./harness.js";

// methodSaves: a bank card saved with no payment ("Привязка банковской карты на нулевую сумму",
// …/save-payment-method/save-without-payment/bank-card), against the emulator over real HTTP.
let emulator: YooKassaEmulator;
let without: YooKassaEmulator;
beforeAll(async () => {
  emulator = await startYooKassaEmulator({ methodSaves: true });
  without = await startYooKassaEmulator();
});
afterAll(async () => {
  await emulator.close();
  await without.close();
});

const RETURN_URL = "https://pay.kopek.test/method/return?save=1";
const saves = (target = emulator, overrides = {}): MethodSaves => {
  const methodSaves = providerFor(target, { saveWithoutPayment: true, ...overrides }).methodSaves;
  if (methodSaves === undefined) throw new Error("saveWithoutPayment: true gave no methodSaves");
  return methodSaves;
};
const saveRequest = (overrides: Partial<MethodSaveRequest> = {}): MethodSaveRequest => ({
  saveId: globalThis.crypto.randomUUID(),
  method: "card",
  returnUrl: RETURN_URL,
  idempotencyKey: `method-save:${globalThis.crypto.randomUUID()}`,
  ...overrides,
});
const charge = (ref: string) => ({
  paymentId: globalThis.crypto.randomUUID(),
  ref,
  method: "card" as const,
  money: { amount: "49900", currency: "RUB" },
  description: "First renewal",
  receipt: null,
  idempotencyKey: randomKey(),
});
const submit = (url: string, form: Record<string, string>) =>
  fetch(url, { method: "POST", body: new URLSearchParams(form), redirect: "manual" });

describe("the option", () => {
  it("is off by default: no methodSaves, a new card goes the verification-payment way", () => {
    expect(providerFor(emulator).methodSaves).toBeUndefined();
    expect(providerFor(emulator, { saveWithoutPayment: false }).methodSaves).toBeUndefined();
  });

  it("saves cards only, and only when cards are charged stored", () => {
    expect(saves().methods).toEqual(["card"]);
    expect(saves(emulator, { storedMethods: ["card", "sbp"] }).methods).toEqual(["card"]);
    expect(saves(emulator, { storedMethods: ["sbp"] }).methods).toEqual([]);
  });
});

describe("a card saved with no payment", () => {
  it("goes from the payer's page to a saved card that chargeStoredMethod charges", async () => {
    const provider = providerFor(emulator, { saveWithoutPayment: true });
    const methodSaves = provider.methodSaves as MethodSaves;
    const before = emulator.methodSaves.saves.size;
    const paymentsBefore = emulator.books.payments.size;
    const started = (await methodSaves.start(saveRequest()))._unsafeUnwrap();
    expect(started.confirmationUrl).toBe(`${emulator.url}/checkout/payment-methods/${started.saveRef}`);
    expect(emulator.methodSaves.saves.size).toBe(before + 1);
    // No money moves: no payment was made to save the card.
    expect(emulator.books.payments.size).toBe(paymentsBefore);
    expect((await methodSaves.get(started.saveRef))._unsafeUnwrap()).toEqual({ status: "pending" });

    const page = await (await fetch(started.confirmationUrl)).text();
    expect(page).toContain("TEST");
    expect(page).toContain(`value="${EMULATOR_SUCCESS_CARD}"`);
    expect(page).toMatch(/<button type="submit">Save card<\/button>/);
    const back = await submit(started.confirmationUrl, { outcome: "save", card: "2200701234567890" });
    expect(back.status).toBe(303);
    expect(back.headers.get("location")).toBe(RETURN_URL);

    const state = (await methodSaves.get(started.saveRef))._unsafeUnwrap();
    expect(state).toEqual({
      status: "saved",
      savedMethod: { ref: started.saveRef, methodMask: "2200 70** **** 7890" },
    });
    const charged = (await provider.chargeStoredMethod(charge(started.saveRef)))._unsafeUnwrap();
    expect(charged).toMatchObject({ status: "succeeded", methodMask: "2200 70** **** 7890" });
    const booked = emulator.books.payments.get(charged.providerPaymentId);
    expect(booked).toMatchObject({
      status: "succeeded",
      amount: { value: "499.00", currency: "RUB" },
      payment_method: { id: started.saveRef, saved: true, status: "active", card: { last4: "7890" } },
    });
    expect(emulator.books.payments.size).toBe(paymentsBefore + 1);
  });

  it("fails when the payer declines, and the method cannot be charged", async () => {
    const methodSaves = saves();
    const started = (await methodSaves.start(saveRequest()))._unsafeUnwrap();
    const back = await submit(started.confirmationUrl, { outcome: "decline" });
    expect(back.headers.get("location")).toBe(RETURN_URL);
    expect((await methodSaves.get(started.saveRef))._unsafeUnwrap()).toEqual({ status: "failed" });
    const refused = await providerFor(emulator).chargeStoredMethod(charge(started.saveRef));
    expect(refused._unsafeUnwrapErr()).toMatchObject({ code: "failed", message: /400 invalid_request/ });
    expect(refused._unsafeUnwrapErr().message).not.toContain(started.saveRef);
  });

  it("stays pending while a declined card is tried again on the page, and a test decides it", async () => {
    const methodSaves = saves();
    const started = (await methodSaves.start(saveRequest()))._unsafeUnwrap();
    const refused = await submit(started.confirmationUrl, { outcome: "save", card: "5555555555550001" });
    expect(refused.status).toBe(200);
    expect(await refused.text()).toContain("declined (insufficient_funds)");
    expect((await methodSaves.get(started.saveRef))._unsafeUnwrap()).toEqual({ status: "pending" });
    emulator.methodSaves.decide(started.saveRef, { card: EMULATOR_SUCCESS_CARD });
    expect((await methodSaves.get(started.saveRef))._unsafeUnwrap()).toMatchObject({
      status: "saved",
      savedMethod: { methodMask: "5555 55** **** 4477" },
    });
  });

  it("answers the same save to the same idempotencyKey: one method at YooKassa", async () => {
    const methodSaves = saves();
    const request = saveRequest();
    const before = emulator.methodSaves.saves.size;
    const first = (await methodSaves.start(request))._unsafeUnwrap();
    const again = (await methodSaves.start(request))._unsafeUnwrap();
    expect(again).toEqual(first);
    expect(emulator.methodSaves.saves.size).toBe(before + 1);
    // After the payer saved, the repeat still names the same method, and sends the payer straight back.
    emulator.methodSaves.decide(first.saveRef, { card: EMULATOR_SUCCESS_CARD });
    expect((await methodSaves.start(request))._unsafeUnwrap()).toEqual({
      saveRef: first.saveRef,
      confirmationUrl: RETURN_URL,
    });
    expect(emulator.methodSaves.saves.size).toBe(before + 1);
  });

  it("refuses a method it does not save without a request", async () => {
    const start = emulator.requests.length;
    const refused = await saves().start(saveRequest({ method: "sbp" }));
    expect(refused._unsafeUnwrapErr()).toMatchObject({ code: "failed", message: /sbp is not saved/ });
    expect(emulator.requests.length).toBe(start);
  });
});

describe("what goes wrong", () => {
  it("is refused in a shop YooKassa has not enabled it for: failed, 403 forbidden", async () => {
    const refused = (await saves(without).start(saveRequest()))._unsafeUnwrapErr();
    expect(refused.code).toBe("failed");
    expect(refused.message).toMatch(/^YooKassa refused the request: 403 forbidden: /);
    expect(without.methodSaves.saves.size).toBe(0);
  });

  it("makes one method when the answer to the first attempt was lost (same Idempotence-Key)", async () => {
    const before = emulator.methodSaves.saves.size;
    const start = emulator.requests.length;
    emulator.failNext(1, "500", { afterProcessing: true, request: "POST /v3/payment_methods" });
    const started = (await saves().start(saveRequest()))._unsafeUnwrap();
    const attempts = emulator.requests.slice(start);
    expect(attempts.map((r) => r.status)).toEqual([500, 200]);
    expect(new Set(attempts.map((r) => r.idempotenceKey)).size).toBe(1);
    expect(emulator.methodSaves.saves.size).toBe(before + 1);
    expect(emulator.methodSaves.saves.has(started.saveRef)).toBe(true);
  });

  it("is unavailable when no answer comes in time; asked again with the key, the same method", async () => {
    const request = saveRequest();
    const before = emulator.methodSaves.saves.size;
    emulator.failNext(1, "timeout", { afterProcessing: true, request: "POST /v3/payment_methods" });
    const lost = await saves(emulator, { timeoutMs: 150, maxRetries: 0 }).start(request);
    expect(lost._unsafeUnwrapErr().code).toBe("unavailable");
    expect(emulator.methodSaves.saves.size).toBe(before + 1);
    const again = (await saves().start(request))._unsafeUnwrap();
    expect(emulator.methodSaves.saves.size).toBe(before + 1);
    expect(emulator.methodSaves.saves.has(again.saveRef)).toBe(true);
  });

  it("reads an unknown ref as failed (unknownRef) without repeating it, and an outage as unavailable", async () => {
    const unknown = "2ecb3f1a-000f-5000-9000-000000000000";
    const error = (await saves().get(unknown))._unsafeUnwrapErr();
    expect(error).toMatchObject({ code: "failed", unknownRef: true, message: /404 not_found/ });
    expect(error.message).not.toContain(unknown);
    const started = (await saves().start(saveRequest()))._unsafeUnwrap();
    emulator.failNext(4, "500", { request: `GET /v3/payment_methods/${started.saveRef}` });
    expect((await saves().get(started.saveRef))._unsafeUnwrapErr().code).toBe("unavailable");
  });
});

describe("the request, against YooKassa's documented schema", () => {
  // POST /payment_methods body: SavePaymentMethodDataBankCard = SavePaymentMethodData (type required;
  // holder, client_ip, confirmation, metadata) + card; confirmation: PaymentMethodsConfirmationDataRedirect
  // (type, return_url required ≤ 2048; enforce, locale). OpenAPI specification of yookassa.ru/developers/api.
  const BODY_FIELDS = ["type", "holder", "client_ip", "confirmation", "metadata", "card"];
  const CONFIRMATION_FIELDS = ["type", "return_url", "enforce", "locale"];

  it("sends only documented fields, a redirect back to Kopek, and the derived Idempotence-Key", async () => {
    const request = saveRequest({ idempotencyKey: `method-save:${"x".repeat(80)}` });
    const start = emulator.requests.length;
    (await saves().start(request))._unsafeUnwrap();
    const [sent] = emulator.requests.slice(start);
    expect(sent).toMatchObject({ method: "POST", path: "/v3/payment_methods", status: 200 });
    expect(sent?.idempotenceKey).toBe(idempotenceKeyOf(request.idempotencyKey));
    expect(sent?.idempotenceKey).toMatch(/^[0-9a-zA-Z+\-_.]{1,64}$/);
    const body = sent?.body as Record<string, unknown>;
    expect(BODY_FIELDS).toEqual(expect.arrayContaining(Object.keys(body)));
    expect(body.type).toBe("bank_card");
    // No card data: the payer enters the card on YooKassa's page (no PCI DSS scope for Kopek).
    expect(body.card).toBeUndefined();
    const confirmation = body.confirmation as Record<string, unknown>;
    expect(CONFIRMATION_FIELDS).toEqual(expect.arrayContaining(Object.keys(confirmation)));
    expect(confirmation).toEqual({ type: "redirect", return_url: RETURN_URL });
    // Metadata: ≤ 16 keys, names ≤ 32, string values ≤ 512 [Metadata].
    expect(body.metadata).toEqual({ kopekSaveId: request.saveId });
  });
});
