import { sampleReceipt } from "@kopek/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTBankEmulator, type TBankEmulator } from "./emulator.js";
import { chargeRequest, paymentRequest, providerFor } from "./harness.js";

let emulator: TBankEmulator;
beforeAll(async () => {
  emulator = await startTBankEmulator();
});
afterAll(() => emulator.close());

const requestsOf = (method: string) => emulator.requests.filter((request) => request.method === method);
const press = (url: string, outcome: "bind" | "refuse") =>
  fetch(url, { method: "POST", body: new URLSearchParams({ outcome }) });

describe("saving SBP by binding an account with the invoice's payment", () => {
  it("sends the payer to AddAccountQr's link, charges the amount with ChargeQr once ACTIVE, and saves the account", async () => {
    const provider = providerFor(emulator, { storedMethods: ["card", "sbp"] });
    expect(provider.capabilities.saveMethod).toEqual(["card", "sbp"]);
    const receipt = sampleReceipt("149900");
    const request = paymentRequest({
      method: "sbp",
      saveMethod: true,
      receipt,
      money: { amount: "149899", currency: "RUB" },
    });
    const created = (await provider.createPayment(request))._unsafeUnwrap();
    const requestKey = created.providerPaymentId.slice(3);
    expect(created).toMatchObject({ status: "pending", providerPaymentId: `b1:${requestKey}` });
    expect(created.confirmationUrl).toBe(`${emulator.url}/bind/${requestKey}`);
    const init = requestsOf("Init").at(-1)?.body ?? {};
    expect(init).toMatchObject({
      Amount: 149899,
      Recurrent: "Y",
      OrderId: `b1-${requestKey.replaceAll("-", "")}`,
    });
    expect(init.DATA).toMatchObject({ QR: "true", KopekPaymentId: request.paymentId });
    expect(init.Receipt).toBeDefined();
    // A retry answers the same binding.
    expect((await provider.createPayment(request))._unsafeUnwrap()).toEqual(created);
    expect(requestsOf("AddAccountQr")).toHaveLength(1);

    // Not yet bound: pending, nothing charged.
    expect((await provider.getPayment(created.providerPaymentId))._unsafeUnwrap().status).toBe("pending");
    expect(requestsOf("ChargeQr")).toHaveLength(0);

    expect((await press(created.confirmationUrl, "bind")).status).toBe(200);
    const token = emulator.accounts.accounts.get(requestKey)?.AccountToken ?? "";
    const paid = (await provider.getPayment(created.providerPaymentId))._unsafeUnwrap();
    expect(paid).toEqual({
      providerPaymentId: created.providerPaymentId,
      status: "succeeded",
      failureCode: null,
      methodMask: "СБП · Т-Банк",
      savedMethod: { ref: `q1:${requestKey}:${token}`, methodMask: "СБП · Т-Банк" },
      money: request.money,
    });
    expect(requestsOf("ChargeQr").map((r) => r.body.AccountToken)).toEqual([token]);
    // Asked again (a replayed notification, the return page): read, never charged twice.
    expect((await provider.getPayment(created.providerPaymentId))._unsafeUnwrap()).toEqual(paid);
    expect(requestsOf("ChargeQr")).toHaveLength(1);

    const renewal = await provider.chargeStoredMethod(
      chargeRequest(paid.savedMethod?.ref ?? "", { method: "sbp" }),
    );
    expect(renewal._unsafeUnwrap().status).toBe("succeeded");
    expect(requestsOf("ChargeQr")).toHaveLength(2);
  });

  it("charges once when asked in parallel right after the binding turned ACTIVE", async () => {
    const provider = providerFor(emulator, { storedMethods: ["sbp"] });
    const created = (
      await provider.createPayment(paymentRequest({ method: "sbp", saveMethod: true }))
    )._unsafeUnwrap();
    await press(created.confirmationUrl, "bind");
    const before = requestsOf("ChargeQr").length;
    const answers = await Promise.all([1, 2, 3].map(() => provider.getPayment(created.providerPaymentId)));
    expect(answers.map((answer) => answer._unsafeUnwrap().status)).toEqual([
      "succeeded",
      "succeeded",
      "succeeded",
    ]);
    expect(requestsOf("ChargeQr")).toHaveLength(before + 1);
    // Another process (another adapter) asking later reads it, and T-Bank would refuse a second charge.
    const other = providerFor(emulator, { storedMethods: ["sbp"] });
    expect((await other.getPayment(created.providerPaymentId))._unsafeUnwrap().status).toBe("succeeded");
    expect(requestsOf("ChargeQr")).toHaveLength(before + 1);
  });

  it("answers canceled when the payer refuses the binding, and never charges", async () => {
    const provider = providerFor(emulator, { storedMethods: ["sbp"] });
    const created = (
      await provider.createPayment(paymentRequest({ method: "sbp", saveMethod: true }))
    )._unsafeUnwrap();
    const charges = requestsOf("ChargeQr").length;
    await press(created.confirmationUrl, "refuse");
    const refused = (await provider.getPayment(created.providerPaymentId))._unsafeUnwrap();
    expect(refused).toMatchObject({ status: "canceled", failureCode: "payment_declined", savedMethod: null });
    expect(requestsOf("ChargeQr")).toHaveLength(charges);
  });

  it("names the binding's payment from the binding's Token-signed notification", async () => {
    const provider = providerFor(emulator, { storedMethods: ["sbp"] });
    const created = (
      await provider.createPayment(paymentRequest({ method: "sbp", saveMethod: true }))
    )._unsafeUnwrap();
    emulator.notifyTo("http://127.0.0.1:9/nowhere");
    await press(created.confirmationUrl, "bind");
    await emulator.deliveries();
    emulator.notifyTo(null);
    const sent = emulator.notifications.at(-1)?.body ?? {};
    expect(sent).toMatchObject({ Status: "ACTIVE", RequestKey: created.providerPaymentId.slice(3) });
    const subject = provider.readNotification({ headers: {}, body: JSON.stringify(sent) });
    expect(subject._unsafeUnwrap()).toEqual({ providerPaymentId: created.providerPaymentId });
  });

  it("cancels a binding's payment before the payer binds: ChargeQr then finds nothing to pay", async () => {
    const provider = providerFor(emulator, { storedMethods: ["sbp"] });
    const created = (
      await provider.createPayment(paymentRequest({ method: "sbp", saveMethod: true }))
    )._unsafeUnwrap();
    const canceled = await provider.cancelPayment({
      providerPaymentId: created.providerPaymentId,
      idempotencyKey: "c",
    });
    expect(canceled._unsafeUnwrap()).toMatchObject({
      providerPaymentId: created.providerPaymentId,
      status: "canceled",
    });
    await press(created.confirmationUrl, "bind");
    expect((await provider.getPayment(created.providerPaymentId))._unsafeUnwrap().status).toBe("canceled");
    expect(
      requestsOf("ChargeQr").filter(
        (r) =>
          r.body.AccountToken ===
          emulator.accounts.accounts.get(created.providerPaymentId.slice(3))?.AccountToken,
      ),
    ).toHaveLength(0);
  });
});

describe("a numeric RequestKey, as [T] types it (AddAccountQr, GetAddAccountQrState: number, example 211258)", () => {
  it("binds and pays with it: GetAddAccountQrState is asked with the number, the account is saved", async () => {
    const numeric = await startTBankEmulator({ requestKeys: "numeric" });
    try {
      const provider = providerFor(numeric, { storedMethods: ["sbp"] });
      const created = (
        await provider.createPayment(paymentRequest({ method: "sbp", saveMethod: true }))
      )._unsafeUnwrap();
      const requestKey = created.providerPaymentId.slice(3);
      expect(requestKey).toMatch(/^[0-9]+$/);
      expect(numeric.requests.find((r) => r.method === "Init")?.body.OrderId).toBe(`b1-${requestKey}`);
      expect((await press(created.confirmationUrl, "bind")).status).toBe(200);
      const paid = (await provider.getPayment(created.providerPaymentId))._unsafeUnwrap();
      const token = numeric.accounts.accounts.get(requestKey)?.AccountToken ?? "";
      expect(paid).toMatchObject({ status: "succeeded", savedMethod: { ref: `q1:${requestKey}:${token}` } });
      const asked = numeric.requests
        .filter((r) => r.method === "GetAddAccountQrState")
        .map((r) => r.body.RequestKey);
      expect(asked).toContain(Number(requestKey));
      // The binding's own notification names the payment too.
      await numeric.deliveries();
    } finally {
      await numeric.close();
    }
  });
});
