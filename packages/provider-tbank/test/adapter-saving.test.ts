import { sampleReceipt } from "@kopek/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toTBankReceipt } from "../src/receipt-mapping.js";
import { EMULATOR_SUCCESS_CARD, startTBankEmulator, type TBankEmulator } from "./emulator.js";
import { chargeRequest, paymentRequest, providerFor } from "./harness.js";

let emulator: TBankEmulator;
beforeAll(async () => {
  emulator = await startTBankEmulator();
});
afterAll(() => emulator.close());

const requestsOf = (method: string) => emulator.requests.filter((request) => request.method === method);
const pay = (url: string, card = EMULATOR_SUCCESS_CARD) =>
  fetch(url, { method: "POST", body: new URLSearchParams({ outcome: "pay", card }), redirect: "manual" });

describe("saving a card with a payment", () => {
  it("asks Recurrent=Y with a CustomerKey, reads the saved card from GetCardList, and charges it with Init + Charge", async () => {
    const provider = providerFor(emulator);
    expect(provider.capabilities.saveMethod).toEqual(["card"]);
    const created = (await provider.createPayment(paymentRequest({ saveMethod: true })))._unsafeUnwrap();
    const init = requestsOf("Init").at(-1)?.body ?? {};
    expect(init.Recurrent).toBe("Y");
    expect(init.CustomerKey).toBe(init.OrderId);
    expect((await provider.getPayment(created.providerPaymentId))._unsafeUnwrap().savedMethod).toBeNull();

    await pay(created.confirmationUrl);
    const paid = (await provider.getPayment(created.providerPaymentId))._unsafeUnwrap();
    const rebillId = emulator.books.payments.get(created.providerPaymentId)?.rebillId;
    expect(rebillId).toMatch(/^[0-9]+$/);
    expect(paid).toEqual({
      providerPaymentId: created.providerPaymentId,
      status: "succeeded",
      failureCode: null,
      methodMask: "4300 00** **** 0777",
      savedMethod: { ref: `${init.CustomerKey}:${rebillId}`, methodMask: "4300 00** **** 0777" },
      money: paymentRequest().money,
    });
    const ref = paid.savedMethod?.ref ?? "";
    expect((await provider.describeStoredMethod({ ref, method: "card" }))._unsafeUnwrap()).toEqual({
      kind: "card",
      first6: "430000",
      last4: "0777",
      length: 16,
    });

    const renewal = (await provider.chargeStoredMethod(chargeRequest(ref)))._unsafeUnwrap();
    expect(renewal).toMatchObject({ status: "succeeded", failureCode: null });
    expect(requestsOf("Charge").at(-1)?.body).toMatchObject({
      PaymentId: renewal.providerPaymentId,
      RebillId: rebillId,
    });
  });

  it("asks nothing more of a payment that saves nothing: no Recurrent, no GetCardList, savedMethod null", async () => {
    const provider = providerFor(emulator);
    const created = (await provider.createPayment(paymentRequest()))._unsafeUnwrap();
    expect(requestsOf("Init").at(-1)?.body).not.toHaveProperty("Recurrent");
    await pay(created.confirmationUrl);
    const lists = requestsOf("GetCardList").length;
    const paid = (await provider.getPayment(created.providerPaymentId))._unsafeUnwrap();
    expect(paid).toMatchObject({ status: "succeeded", savedMethod: null, methodMask: null });
    expect(requestsOf("GetCardList")).toHaveLength(lists);
  });

  it("answers unavailable while GetCardList is down for a paid saving order, so the card is not lost", async () => {
    const provider = providerFor(emulator, { maxRetries: 0 });
    const created = (await provider.createPayment(paymentRequest({ saveMethod: true })))._unsafeUnwrap();
    await pay(created.confirmationUrl);
    emulator.failNext(1, "500", { method: "GetCardList" });
    expect((await provider.getPayment(created.providerPaymentId))._unsafeUnwrapErr().code).toBe(
      "unavailable",
    );
    expect((await provider.getPayment(created.providerPaymentId))._unsafeUnwrap().savedMethod).not.toBeNull();
  });

  it("refuses to save SBP unless storedMethods names it, before asking T-Bank anything", async () => {
    const provider = providerFor(emulator);
    const inits = requestsOf("Init").length;
    const refused = await provider.createPayment(paymentRequest({ method: "sbp", saveMethod: true }));
    expect(refused._unsafeUnwrapErr()).toMatchObject({
      code: "failed",
      message: expect.stringContaining("sbp"),
    });
    expect(requestsOf("Init")).toHaveLength(inits);
  });
});

describe("receipts", () => {
  it("sends the receipt inside Init, exactly as mapped, and T-Bank takes it", async () => {
    const provider = providerFor(emulator);
    expect(provider.capabilities.receipts).toBe(true);
    const receipt = sampleReceipt("149900");
    const money = { amount: "149899", currency: "RUB" }; // 3 × 49966 + 0.5 × 2 kopecks
    const created = await provider.createPayment(paymentRequest({ money, receipt }));
    expect(created.isOk()).toBe(true);
    const sent = requestsOf("Init").at(-1)?.body.Receipt;
    expect(sent).toEqual((toTBankReceipt(receipt) as { ok: unknown }).ok);
    expect(sent).toMatchObject({ Taxation: "usn_income", FfdVersion: "1.05", Phone: "+79991234567" });
  });

  it("sends it again with every stored-method charge (each renewal is a sale of its own)", async () => {
    const provider = providerFor(emulator);
    const ref = emulator.books.seedSavedCard();
    const receipt = sampleReceipt("99001"); // 3 × 33000 + 1 = 99001 kopecks
    const request = chargeRequest(ref, { money: { amount: "99001", currency: "RUB" }, receipt });
    expect((await provider.chargeStoredMethod(request))._unsafeUnwrap().status).toBe("succeeded");
    const init = requestsOf("Init").at(-1)?.body ?? {};
    expect(init.Receipt).toMatchObject({
      Items: [
        { Price: 33000, Amount: 99000 },
        { Price: 2, Amount: 1 },
      ],
    });
  });

  it("refuses a receipt T-Bank cannot take (no tax system) before any Init, never dropping it", async () => {
    const provider = providerFor(emulator);
    const inits = requestsOf("Init").length;
    const receipt = { ...sampleReceipt("149900"), taxSystemCode: null };
    const refused = await provider.createPayment(paymentRequest({ receipt }));
    expect(refused._unsafeUnwrapErr()).toMatchObject({
      code: "failed",
      message: expect.stringContaining("taxSystemCode"),
    });
    expect(requestsOf("Init")).toHaveLength(inits);
  });

  it("refuses taxSystemCode 4 (envd), which [T]'s Receipt_FFD_105 Taxation does not list, before any Init", async () => {
    const provider = providerFor(emulator);
    expect(provider.capabilities.receiptTaxSystems).toEqual([1, 2, 3, 5, 6]);
    const inits = requestsOf("Init").length;
    const receipt = { ...sampleReceipt("149900"), taxSystemCode: 4 };
    const refused = await provider.createPayment(paymentRequest({ receipt }));
    expect(refused._unsafeUnwrapErr()).toMatchObject({
      code: "failed",
      message: expect.stringContaining("envd"),
    });
    expect(requestsOf("Init")).toHaveLength(inits);
  });

  it("the emulator refuses a receipt whose items do not come to the Amount", async () => {
    const provider = providerFor(emulator);
    const refused = await provider.createPayment(
      paymentRequest({ money: { amount: "149900", currency: "RUB" }, receipt: sampleReceipt("149900") }),
    );
    expect(refused._unsafeUnwrapErr().message).toContain("Amount");
  });
});
