import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { orderIdOf } from "../src/index.js";
import { startTBankEmulator, type TBankEmulator } from "./emulator.js";
import { paymentRequest, providerFor, randomKey } from "./harness.js";

let emulator: TBankEmulator;
beforeAll(async () => {
  emulator = await startTBankEmulator();
});
afterAll(() => emulator.close());

const ofOrder = (key: string) => emulator.books.paymentsOf(orderIdOf(key));
const payable = (key: string) => ofOrder(key).filter((payment) => payment.Status !== "CANCELED");

describe("an unknown outcome never makes a second payment", () => {
  it("retries a 500 that came after Init made the payment: one payable payment, the one returned", async () => {
    const provider = providerFor(emulator);
    const request = paymentRequest();
    emulator.failNext(1, "500", { afterProcessing: true, method: "Init" });
    const created = (await provider.createPayment(request))._unsafeUnwrap();
    // Init's answer was lost, so nobody held the first payment's URL: it is canceled, and one remains.
    expect(payable(request.idempotencyKey).map((payment) => payment.PaymentId)).toEqual([
      created.providerPaymentId,
    ]);
    expect(created.confirmationUrl).toContain(created.providerPaymentId);
  });

  it("never repeats an Init whose answer never came: it finds the order's payment and makes one payable payment", async () => {
    // T-Bank takes a second Init of an order ([T] "OrderId … не является уникальным идентификатором"):
    // a blind repeat would leave the first payment NEW in the order, an orphan.
    const provider = providerFor(emulator, { timeoutMs: 1_000, maxRetries: 3 });
    const request = paymentRequest();
    const start = emulator.requests.length;
    emulator.failNext(1, "timeout", { afterProcessing: true, method: "Init" });
    const again = (await provider.createPayment(request))._unsafeUnwrap();
    // Init, CheckOrder (the order holds the URL-less payment), Cancel of it, Init again: never two Inits in a row.
    const methods = emulator.requests.slice(start).map((sent) => sent.method);
    expect(methods).toEqual(["CheckOrder", "Init", "CheckOrder", "Cancel", "Init"]);
    expect(payable(request.idempotencyKey).map((payment) => payment.PaymentId)).toEqual([
      again.providerPaymentId,
    ]);
  });

  const chargeOf = () => ({
    paymentId: globalThis.crypto.randomUUID(),
    ref: emulator.books.seedSavedCard(),
    method: "card" as const,
    money: { amount: "50000", currency: "RUB" },
    description: "Renewal",
    receipt: null,
    idempotencyKey: randomKey(),
  });
  const successfulCharges = (start: number) =>
    emulator.requests.slice(start).filter((request) => request.method === "Charge" && request.status === 200);

  it("never charges a saved card twice when Charge's answer is lost: CheckOrder finds the charged payment", async () => {
    const provider = providerFor(emulator, { timeoutMs: 1_000, maxRetries: 0 });
    const charge = chargeOf();
    const start = emulator.requests.length;
    emulator.failNext(1, "timeout", { afterProcessing: true, method: "Charge" });
    expect((await provider.chargeStoredMethod(charge))._unsafeUnwrapErr().code).toBe("unavailable");
    const again = (await provider.chargeStoredMethod(charge))._unsafeUnwrap();
    expect(again.status).toBe("succeeded");
    expect(ofOrder(charge.idempotencyKey).map((payment) => payment.PaymentId)).toEqual([
      again.providerPaymentId,
    ]);
    // The lost Charge was the only one that went through; the retry read the order instead.
    expect(emulator.requests.slice(start).filter((request) => request.method === "Charge")).toHaveLength(1);
    expect(successfulCharges(start)).toHaveLength(0);
  });

  it("charges the order's payment when Init's answer was lost, instead of making a second one", async () => {
    const provider = providerFor(emulator, { timeoutMs: 1_000, maxRetries: 0 });
    const charge = chargeOf();
    const start = emulator.requests.length;
    emulator.failNext(1, "500", { afterProcessing: true, method: "Init" });
    const charged = (await provider.chargeStoredMethod(charge))._unsafeUnwrap();
    expect(charged.status).toBe("succeeded");
    expect(ofOrder(charge.idempotencyKey)).toHaveLength(1);
    expect(successfulCharges(start)).toHaveLength(1);
  });

  it("retries inside one call when Charge answered 500 after charging: one charge, succeeded", async () => {
    const provider = providerFor(emulator, { timeoutMs: 500, maxRetries: 2 });
    const charge = chargeOf();
    emulator.failNext(1, "500", { afterProcessing: true, method: "Charge" });
    const charged = (await provider.chargeStoredMethod(charge))._unsafeUnwrap();
    expect(charged.status).toBe("succeeded");
    expect(ofOrder(charge.idempotencyKey)).toHaveLength(1);
  });
});

describe("outages and refusals", () => {
  it("answers unavailable after bounded retries of 500, naming no password", async () => {
    const provider = providerFor(emulator, { maxRetries: 2 });
    const start = emulator.requests.length;
    emulator.failNext(3, "500");
    const error = (await provider.getPayment("1"))._unsafeUnwrapErr();
    expect(error.code).toBe("unavailable");
    expect(error.message).not.toContain(emulator.password);
    expect(emulator.requests.slice(start)).toHaveLength(3);
  });

  it("answers unavailable when the network refuses", async () => {
    const provider = providerFor(emulator, { apiUrl: "http://127.0.0.1:1/v2", maxRetries: 1 });
    expect((await provider.getPayment("1"))._unsafeUnwrapErr().code).toBe("unavailable");
  });

  it("answers failed, not unavailable, for a 4xx that is no API answer (a wrong apiUrl)", async () => {
    const provider = providerFor(emulator, { apiUrl: `${emulator.url}/not-v2` });
    const error = (await provider.getPayment("1"))._unsafeUnwrapErr();
    expect(error).toMatchObject({ code: "failed" });
    expect(error.message).toContain("HTTP 404");
  });

  it("answers failed when T-Bank refuses the Token (another password), with its ErrorCode", async () => {
    const provider = providerFor(emulator, { password: "not-the-password" });
    const error = (await provider.createPayment(paymentRequest()))._unsafeUnwrapErr();
    expect(error.code).toBe("failed");
    expect(error.message).toContain("ErrorCode 204");
    expect(error.message).not.toContain("not-the-password");
  });
});

describe("the guarded way out (@kopek/outbound)", () => {
  it("reaches no API on this machine without allowLocal, and none at the metadata address: nothing is sent", async () => {
    const start = emulator.requests.length;
    for (const overrides of [
      { allowLocal: false },
      { apiUrl: "https://169.254.169.254/v2", allowLocal: true },
      { apiUrl: "http://securepay.tinkoff.ru/v2" },
    ]) {
      const error = (await providerFor(emulator, overrides).getPayment("1"))._unsafeUnwrapErr();
      expect(error.code).toBe("unavailable");
      expect(error.message).toMatch(/must (be https|not point)/);
    }
    expect(emulator.requests.length).toBe(start);
  });
});
