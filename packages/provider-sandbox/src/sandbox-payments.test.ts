import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { createSandboxLedger } from "./ledger.js";
import { createSandboxCheckout } from "./sandbox-payments.js";
import { createSandboxProvider } from "./sandbox-provider.js";

const request = (idempotencyKey = randomUUID()) => ({
  paymentId: randomUUID(),
  money: { amount: "149900", currency: "RUB" },
  method: "sbp" as const,
  description: "Order 1042",
  receipt: null,
  returnUrl: "https://pay.example/pay/x/return",
  notificationUrl: "https://pay.example/provider-events/p/sandbox",
  idempotencyKey,
  saveMethod: false,
});

describe("the sandbox's checkout", () => {
  it("sends the payer to its checkout page, where the payer's choice becomes the provider's word", async () => {
    const ledger = createSandboxLedger();
    const provider = createSandboxProvider({ ledger });
    const checkout = createSandboxCheckout(ledger);
    const paid = (await provider.createPayment(request()))._unsafeUnwrap();
    const declined = (await provider.createPayment(request()))._unsafeUnwrap();
    expect(paid.confirmationUrl).toBe(`/sandbox/checkout/${paid.providerPaymentId}`);
    expect(checkout.find(paid.providerPaymentId)).toMatchObject({ status: "pending", method: "sbp" });

    expect(checkout.decide(paid.providerPaymentId, "succeed")?.status).toBe("succeeded");
    expect(checkout.decide(declined.providerPaymentId, "decline")?.status).toBe("canceled");
    expect((await provider.getPayment(paid.providerPaymentId))._unsafeUnwrap()).toMatchObject({
      status: "succeeded",
      failureCode: null,
    });
    expect((await provider.getPayment(declined.providerPaymentId))._unsafeUnwrap()).toMatchObject({
      status: "canceled",
      failureCode: "payment_declined",
    });
  });

  it("keeps a decided payment as it was, and knows no other", async () => {
    const ledger = createSandboxLedger();
    const provider = createSandboxProvider({
      ledger,
      checkoutUrl: (id) => `https://pay.example/sandbox/${id}`,
    });
    const checkout = createSandboxCheckout(ledger);
    const created = (await provider.createPayment(request()))._unsafeUnwrap();
    expect(created.confirmationUrl).toBe(`https://pay.example/sandbox/${created.providerPaymentId}`);
    checkout.decide(created.providerPaymentId, "decline");
    expect(checkout.decide(created.providerPaymentId, "succeed")?.status).toBe("canceled");
    expect(checkout.decide("pay_unknown", "succeed")).toBeNull();
    expect(checkout.find("pay_unknown")).toBeNull();
  });

  it("answers a retried key with the payment as it stands now, and refuses an unsupported currency", async () => {
    const ledger = createSandboxLedger();
    const provider = createSandboxProvider({ ledger });
    const first = request();
    const created = (await provider.createPayment(first))._unsafeUnwrap();
    createSandboxCheckout(ledger).decide(created.providerPaymentId, "succeed");
    const again = (await provider.createPayment(first))._unsafeUnwrap();
    expect(again).toMatchObject({ providerPaymentId: created.providerPaymentId, status: "succeeded" });
    const yen = await provider.createPayment({ ...request(), money: { amount: "100", currency: "JPY" } });
    expect(yen._unsafeUnwrapErr().code).toBe("failed");
  });
});
