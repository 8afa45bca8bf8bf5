import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { orderIdOf } from "../src/index.js";
import { startTBankEmulator, type TBankEmulator } from "./emulator.js";
import { paymentRequest, providerFor, randomKey } from "./harness.js";

let emulator: TBankEmulator;
beforeAll(async () => {
  emulator = await startTBankEmulator();
});
afterAll(() => emulator.close());

const lastRequest = (method: string) =>
  emulator.requests.filter((request) => request.method === method).at(-1);

/** Submits the emulator's checkout form the way a payer's browser does. */
async function submit(url: string, form: Record<string, string>) {
  return fetch(url, { method: "POST", body: new URLSearchParams(form), redirect: "manual" });
}

describe("invoice payments", () => {
  it("sends Init with the amount in whole kopecks and the OrderId of the key, and redirects to PaymentURL", async () => {
    const provider = providerFor(emulator);
    const request = paymentRequest({ money: { amount: "149901", currency: "RUB" } });
    const created = (await provider.createPayment(request))._unsafeUnwrap();
    const init = lastRequest("Init")?.body ?? {};
    expect(init.Amount).toBe(149901);
    expect(init.OrderId).toBe(orderIdOf(request.idempotencyKey));
    expect(init.NotificationURL).toBe(request.notificationUrl);
    expect(init.SuccessURL).toBe(request.returnUrl);
    expect(created).toMatchObject({ status: "pending", failureCode: null });
    expect(created.confirmationUrl).toBe(`${emulator.url}/new/${created.providerPaymentId}`);
    expect(provider.capabilities.confirmationOrigins).toEqual([emulator.url]);
  });

  it("pays at the checkout: the payer is sent back and getPayment says succeeded", async () => {
    const provider = providerFor(emulator);
    const request = paymentRequest();
    const created = (await provider.createPayment(request))._unsafeUnwrap();
    expect((await fetch(created.confirmationUrl)).status).toBe(200);
    expect((await provider.getPayment(created.providerPaymentId))._unsafeUnwrap().status).toBe("pending");
    const paid = await submit(created.confirmationUrl, { outcome: "pay", card: "4300000000000777" });
    expect(paid.status).toBe(303);
    expect(paid.headers.get("location")).toBe(request.returnUrl);
    expect((await provider.getPayment(created.providerPaymentId))._unsafeUnwrap()).toMatchObject({
      status: "succeeded",
      failureCode: null,
    });
  });

  it("reports a declined card as payment_declined and an expired one as expired", async () => {
    const provider = providerFor(emulator);
    const declined = (await provider.createPayment(paymentRequest()))._unsafeUnwrap();
    await submit(declined.confirmationUrl, { outcome: "pay", card: "4000000000000101" });
    expect((await provider.getPayment(declined.providerPaymentId))._unsafeUnwrap()).toMatchObject({
      status: "canceled",
      failureCode: "payment_declined",
    });
    const expired = (await provider.createPayment(paymentRequest()))._unsafeUnwrap();
    emulator.books.expire(expired.providerPaymentId);
    expect((await provider.getPayment(expired.providerPaymentId))._unsafeUnwrap()).toMatchObject({
      status: "canceled",
      failureCode: "expired",
    });
  });

  it("makes an SBP payment's confirmation the GetQr payload", async () => {
    const provider = providerFor(emulator);
    const created = (await provider.createPayment(paymentRequest({ method: "sbp" })))._unsafeUnwrap();
    expect(lastRequest("GetQr")?.body).toMatchObject({
      PaymentId: created.providerPaymentId,
      DataType: "PAYLOAD",
    });
    expect(created.confirmationUrl).toBe(`${emulator.url}/qr/${created.providerPaymentId}`);
    await submit(created.confirmationUrl, { outcome: "pay", card: "4300000000000777" });
    expect((await provider.getPayment(created.providerPaymentId))._unsafeUnwrap().status).toBe("succeeded");
  });

  it("is refused an SBP payment under 10 RUB, as [T] documents (3016), which is why its SBP verification amount is 10 RUB", async () => {
    const provider = providerFor(emulator);
    const small = await provider.createPayment(
      paymentRequest({ method: "sbp", money: { amount: "999", currency: "RUB" } }),
    );
    expect(small._unsafeUnwrapErr()).toMatchObject({ code: "failed" });
    expect(small._unsafeUnwrapErr().message).toMatch(/3016/);
    expect(provider.capabilities.verificationAmount?.sbp).toBe("1000");
    const least = await provider.createPayment(
      paymentRequest({ method: "sbp", money: { amount: "1000", currency: "RUB" } }),
    );
    expect(least._unsafeUnwrap().status).toBe("pending");
  });

  it("sends the invoice's expiry as RedirectDueDate ([T] YYYY-MM-DDTHH24:MI:SS+GMT), so the link does not live 24 h regardless", async () => {
    const provider = providerFor(emulator, { storedMethods: ["card", "sbp"] });
    const expiresAt = new Date(Date.now() + 2 * 3_600_000);
    const due = `${expiresAt.toISOString().slice(0, 19)}+00:00`;
    const created = (await provider.createPayment(paymentRequest({ expiresAt })))._unsafeUnwrap();
    expect(lastRequest("Init")?.body.RedirectDueDate).toBe(due);
    expect(emulator.books.payments.get(created.providerPaymentId)?.RedirectDueDate).toBe(due);
    (
      await provider.createPayment(paymentRequest({ method: "sbp", saveMethod: true, expiresAt }))
    )._unsafeUnwrap();
    expect(lastRequest("AddAccountQr")?.body.RedirectDueDate).toBe(due);
  });

  it("cancels a pending payment, and refuses to cancel a paid one", async () => {
    const provider = providerFor(emulator);
    const pending = (await provider.createPayment(paymentRequest()))._unsafeUnwrap();
    const canceled = await provider.cancelPayment({
      providerPaymentId: pending.providerPaymentId,
      idempotencyKey: randomKey(),
    });
    expect(canceled._unsafeUnwrap()).toMatchObject({ status: "canceled", failureCode: "expired" });
    const paid = (await provider.createPayment(paymentRequest()))._unsafeUnwrap();
    await submit(paid.confirmationUrl, { outcome: "pay", card: "4300000000000777" });
    const refused = await provider.cancelPayment({
      providerPaymentId: paid.providerPaymentId,
      idempotencyKey: randomKey(),
    });
    expect(refused._unsafeUnwrapErr().code).toBe("failed");
    expect(emulator.books.payments.get(paid.providerPaymentId)?.Status).toBe("CONFIRMED");
  });
});

describe("saved cards", () => {
  it("saves a card from a Recurrent=Y payment and charges it by Init then Charge with its RebillId", async () => {
    const provider = providerFor(emulator);
    const ref = emulator.books.seedSavedCard({ customerKey: "customer-saved", card: "5555555555554444" });
    expect((await provider.describeStoredMethod({ ref, method: "card" }))._unsafeUnwrap()).toEqual({
      kind: "card",
      first6: "555555",
      last4: "4444",
      length: 16,
    });
    const charge = {
      paymentId: globalThis.crypto.randomUUID(),
      ref,
      method: "card" as const,
      money: { amount: "99900", currency: "RUB" },
      description: "Monthly",
      receipt: null,
      idempotencyKey: randomKey(),
    };
    const charged = (await provider.chargeStoredMethod(charge))._unsafeUnwrap();
    expect(charged.status).toBe("succeeded");
    expect(lastRequest("Charge")?.body).toMatchObject({
      PaymentId: charged.providerPaymentId,
      RebillId: ref.split(":")[1],
    });
    expect(lastRequest("Init")?.body).toMatchObject({
      Amount: 99900,
      OrderId: orderIdOf(charge.idempotencyKey),
    });
    const again = await provider.chargeStoredMethod({
      ...charge,
      money: { amount: "99901", currency: "RUB" },
    });
    expect(again._unsafeUnwrapErr().code).toBe("failed");
  });
});

describe("refunds through Cancel", () => {
  it("refunds in parts with Amount, one refund per key, and reads them back from the payment's status", async () => {
    const provider = providerFor(emulator);
    const created = (
      await provider.createPayment(paymentRequest({ money: { amount: "10000", currency: "RUB" } }))
    )._unsafeUnwrap();
    await submit(created.confirmationUrl, { outcome: "pay", card: "4300000000000777" });
    const key = randomKey();
    const refundOf = (amount: string, idempotencyKey = randomKey()) => ({
      refundId: globalThis.crypto.randomUUID(),
      providerPaymentId: created.providerPaymentId,
      money: { amount, currency: "RUB" },
      reason: null,
      idempotencyKey,
    });
    const first = (await provider.refundPayment(refundOf("3000", key)))._unsafeUnwrap();
    expect(first).toMatchObject({ status: "succeeded", money: { amount: "3000", currency: "RUB" } });
    expect(lastRequest("Cancel")?.body).toMatchObject({ Amount: 3000, ExternalRequestId: orderIdOf(key) });
    expect((await provider.refundPayment(refundOf("3000", key)))._unsafeUnwrap().providerRefundId).toBe(
      first.providerRefundId,
    );
    expect(emulator.books.payments.get(created.providerPaymentId)?.refunded).toBe(3000);
    expect((await provider.getRefund(first.providerRefundId))._unsafeUnwrap().status).toBe("succeeded");
    expect((await provider.refundPayment(refundOf("7001"))).isErr()).toBe(true);
    expect((await provider.refundPayment(refundOf("7000")))._unsafeUnwrap().status).toBe("succeeded");
    expect(emulator.books.payments.get(created.providerPaymentId)?.Status).toBe("REFUNDED");
    expect((await provider.getPayment(created.providerPaymentId))._unsafeUnwrap().status).toBe("succeeded");
  });
});
