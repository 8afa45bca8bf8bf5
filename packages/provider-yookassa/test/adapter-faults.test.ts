import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startYooKassaEmulator, type YooKassaEmulator } from "./emulator.js";
import { paymentRequest, providerFor, randomKey } from "./harness.js";

let emulator: YooKassaEmulator;
beforeAll(async () => {
  emulator = await startYooKassaEmulator();
});
afterAll(() => emulator.close());

const paymentsCount = () => emulator.books.payments.size;
const requestsSince = (start: number) => emulator.requests.slice(start);

describe("retries against the emulator's faults", () => {
  it("retries a 500 that came after the payment was made with the same key: one payment", async () => {
    const provider = providerFor(emulator);
    const before = paymentsCount();
    const start = emulator.requests.length;
    emulator.failNext(1, "500", { afterProcessing: true });
    const created = (await provider.createPayment(paymentRequest()))._unsafeUnwrap();
    expect(paymentsCount()).toBe(before + 1);
    const attempts = requestsSince(start);
    expect(attempts.map((r) => r.status)).toEqual([500, 200]);
    expect(new Set(attempts.map((r) => r.idempotenceKey)).size).toBe(1);
    expect(created.status).toBe("pending");
  });

  it("backs off after 429 and then succeeds", async () => {
    const provider = providerFor(emulator);
    const start = emulator.requests.length;
    emulator.failNext(2, "429");
    const began = Date.now();
    expect((await provider.createPayment(paymentRequest())).isOk()).toBe(true);
    expect(requestsSince(start).map((r) => r.status)).toEqual([429, 429, 200]);
    // Back-off of 200 ms, then 400 ms.
    expect(Date.now() - began).toBeGreaterThanOrEqual(550);
  });

  it("answers unavailable after bounded retries of 500, without the key in the message", async () => {
    const provider = providerFor(emulator, { maxRetries: 2 });
    const start = emulator.requests.length;
    emulator.failNext(3, "500");
    const error = (await provider.createPayment(paymentRequest()))._unsafeUnwrapErr();
    expect(error.code).toBe("unavailable");
    expect(error.message).not.toContain(emulator.secretKey);
    expect(requestsSince(start)).toHaveLength(3);
  });

  it("answers unavailable when YooKassa never answers in time, and the retry finds the same payment", async () => {
    const provider = providerFor(emulator, { timeoutMs: 150, maxRetries: 0 });
    const request = paymentRequest();
    emulator.failNext(1, "timeout", { afterProcessing: true });
    const before = paymentsCount();
    expect((await provider.createPayment(request))._unsafeUnwrapErr().code).toBe("unavailable");
    expect(paymentsCount()).toBe(before + 1);
    // Kopek asks again later with the same key: the payment YooKassa made, never a second one.
    const again = (await provider.createPayment(request))._unsafeUnwrap();
    expect(paymentsCount()).toBe(before + 1);
    expect(emulator.books.payments.has(again.providerPaymentId)).toBe(true);
  });

  it("answers unavailable when the network refuses, naming no secret", async () => {
    const provider = providerFor(emulator, { apiUrl: "http://127.0.0.1:1/v3", maxRetries: 1 });
    const error = (await provider.getPayment("anything"))._unsafeUnwrapErr();
    expect(error.code).toBe("unavailable");
    expect(error.message).not.toContain(emulator.secretKey);
  });

  it("reports a stored charge whose outcome stays unknown as unavailable, never as a decline", async () => {
    const provider = providerFor(emulator, { maxRetries: 1 });
    const result = await provider.chargeStoredMethod({
      paymentId: globalThis.crypto.randomUUID(),
      ref: emulator.books.seedSavedMethod({ outcome: "unavailable" }),
      method: "card",
      money: { amount: "100", currency: "RUB" },
      description: "x",
      receipt: null,
      idempotencyKey: randomKey(),
    });
    expect(result._unsafeUnwrapErr().code).toBe("unavailable");
  });
});

describe("the guarded way out (@kopek/outbound)", () => {
  it("reaches no API on this machine without allowLocal, and none at the metadata address: nothing is sent", async () => {
    const start = emulator.requests.length;
    for (const overrides of [
      { allowLocal: false },
      { apiUrl: "https://169.254.169.254/v3", allowLocal: true },
      { apiUrl: "http://api.yookassa.ru/v3" },
    ]) {
      const error = (await providerFor(emulator, overrides).getPayment("1"))._unsafeUnwrapErr();
      expect(error.code).toBe("unavailable");
      expect(error.message).toMatch(/must (be https|not point)/);
    }
    expect(emulator.requests.length).toBe(start);
  });
});
