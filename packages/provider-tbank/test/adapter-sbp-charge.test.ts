import type { StoredMethodCharge } from "@kopek/core";
import { sampleReceipt } from "@kopek/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { orderIdOf } from "../src/index.js";
import { startTBankEmulator, type TBankEmulator } from "./emulator.js";
import { chargeRequest, providerFor } from "./harness.js";

let emulator: TBankEmulator;
beforeAll(async () => {
  emulator = await startTBankEmulator();
});
afterAll(() => emulator.close());

const requestsOf = (method: string) => emulator.requests.filter((request) => request.method === method);
const tokenOf = (ref: string) => ref.split(":").slice(2).join(":");
const sbpCharge = (ref: string, overrides: Partial<StoredMethodCharge> = {}) =>
  chargeRequest(ref, { method: "sbp", money: { amount: "99001", currency: "RUB" }, ...overrides });

describe("stored SBP charges through a bound account", () => {
  it("are offered only when storedMethods names sbp", () => {
    expect(providerFor(emulator).capabilities.storedMethodCharge).toEqual(["card"]);
    const provider = providerFor(emulator, { storedMethods: ["card", "sbp"] });
    expect(provider.capabilities.storedMethodCharge).toEqual(["card", "sbp"]);
  });

  it("charge with Init (Recurrent=Y, DATA QR, the receipt) then ChargeQr with the AccountToken, once per key", async () => {
    const provider = providerFor(emulator, { storedMethods: ["sbp"] });
    const ref = emulator.accounts.seedBoundAccount();
    const request = sbpCharge(ref, { receipt: sampleReceipt("99001") });
    const charged = (await provider.chargeStoredMethod(request))._unsafeUnwrap();
    expect(charged).toMatchObject({ status: "succeeded", failureCode: null, savedMethod: null });

    const init = requestsOf("Init").at(-1)?.body ?? {};
    expect(init).toMatchObject({ Amount: 99001, OrderId: orderIdOf(request.idempotencyKey), Recurrent: "Y" });
    expect(init.DATA).toMatchObject({ QR: "true", KopekPaymentId: request.paymentId });
    expect(init.Receipt).toMatchObject({ Items: [{ Price: 33000 }, { Price: 2 }] });
    expect(requestsOf("ChargeQr").at(-1)?.body).toMatchObject({
      PaymentId: charged.providerPaymentId,
      AccountToken: tokenOf(ref),
    });
    expect(emulator.books.payments.get(charged.providerPaymentId)?.Status).toBe("CONFIRMED");

    const inits = requestsOf("Init").length;
    const charges = requestsOf("ChargeQr").length;
    const again = (await provider.chargeStoredMethod(request))._unsafeUnwrap();
    expect(again.providerPaymentId).toBe(charged.providerPaymentId);
    expect(requestsOf("Init")).toHaveLength(inits);
    expect(requestsOf("ChargeQr")).toHaveLength(charges);
  });

  it("never charges twice when ChargeQr's answer is lost: the retry finds the payment paid", async () => {
    const provider = providerFor(emulator, { storedMethods: ["sbp"] });
    const ref = emulator.accounts.seedBoundAccount();
    emulator.failNext(1, "timeout", { afterProcessing: true, method: "ChargeQr" });
    const request = sbpCharge(ref);
    const charged = (await provider.chargeStoredMethod(request))._unsafeUnwrap();
    expect(charged.status).toBe("succeeded");
    const orders = emulator.books.paymentsOf(orderIdOf(request.idempotencyKey));
    expect(orders.map((payment) => payment.Status)).toEqual(["CONFIRMED"]);
    expect((await provider.chargeStoredMethod(request))._unsafeUnwrap().providerPaymentId).toBe(
      charged.providerPaymentId,
    );
    expect(emulator.books.paymentsOf(orderIdOf(request.idempotencyKey))).toHaveLength(1);
  });

  it("answers a declined account as a canceled payment, payment_declined", async () => {
    const provider = providerFor(emulator, { storedMethods: ["sbp"] });
    const ref = emulator.accounts.seedBoundAccount({ outcome: { decline: "Недостаточно средств" } });
    const declined = (await provider.chargeStoredMethod(sbpCharge(ref)))._unsafeUnwrap();
    expect(declined).toMatchObject({ status: "canceled", failureCode: "payment_declined" });
  });

  it("refuses a card ref as SBP and never shows an AccountToken in a message", async () => {
    const provider = providerFor(emulator, { storedMethods: ["card", "sbp"] });
    const card = emulator.books.seedSavedCard();
    expect((await provider.chargeStoredMethod(sbpCharge(card)))._unsafeUnwrapErr().code).toBe("failed");
    const unknown = `q1:${globalThis.crypto.randomUUID()}:ASECRETTOKEN0001`;
    const refused = (await provider.chargeStoredMethod(sbpCharge(unknown)))._unsafeUnwrapErr();
    expect(refused.code).toBe("failed");
    expect(refused.message).not.toContain("ASECRETTOKEN0001");
  });

  it("describes a bound account by its bank, from GetAddAccountQrState", async () => {
    const provider = providerFor(emulator, { storedMethods: ["sbp"] });
    const ref = emulator.accounts.seedBoundAccount();
    expect((await provider.describeStoredMethod({ ref, method: "sbp" }))._unsafeUnwrap()).toEqual({
      kind: "masked",
      mask: "СБП · Т-Банк",
    });
    const stale = `${ref.split(":").slice(0, 2).join(":")}:AOTHERTOKEN`;
    expect((await provider.describeStoredMethod({ ref: stale, method: "sbp" })).isErr()).toBe(true);
  });
});
