import {
  chargeableLater,
  type PaymentProvider,
  type PaymentRequest,
  verificationAmountOf,
} from "@kopek/core";
import { describe, expect, it } from "vitest";

/** The provider contract's part on payments a payer confirms: `createPayment`, `getPayment`, lookups. */
export function describePaymentContract(chargingProvider: () => PaymentProvider): void {
  describe("createPayment and getPayment", () => {
    const requestOf = (
      provider: PaymentProvider,
      overrides: Partial<PaymentRequest> = {},
    ): PaymentRequest => ({
      paymentId: globalThis.crypto.randomUUID(),
      money: { amount: "250000", currency: provider.capabilities.currencies[0] ?? "RUB" },
      method: provider.capabilities.methods[0] ?? "card",
      description: "Kopek provider contract",
      receipt: null,
      returnUrl: "https://pay.kopek.test/pay/return",
      notificationUrl: "https://pay.kopek.test/provider-events/contract/test",
      idempotencyKey: randomKey(),
      saveMethod: false,
      ...overrides,
    });

    it("creates a pending payment for each method, with where the payer confirms it", async () => {
      const provider = chargingProvider();
      for (const method of provider.capabilities.methods) {
        const request = requestOf(provider, { method });
        const created = (await provider.createPayment(request))._unsafeUnwrap();
        // The money it was asked for, named in every answer: Kopek settles on no other (API.md 10.1).
        expect(created).toMatchObject({ status: "pending", failureCode: null, money: request.money });
        expect(created.providerPaymentId).not.toBe("");
        expect(created.confirmationUrl).toMatch(/^(https?:\/\/|\/[^/])/);
        const { kopekPaymentId, ...checked } = (
          await provider.getPayment(created.providerPaymentId)
        )._unsafeUnwrap();
        // A provider that tells Kopek's id tells the one it was given: a notification is matched on it.
        if (kopekPaymentId != null) expect(kopekPaymentId).toBe(request.paymentId);
        expect(checked).toEqual({
          providerPaymentId: created.providerPaymentId,
          status: "pending",
          failureCode: null,
          methodMask: created.methodMask,
          savedMethod: null,
          money: request.money,
        });
      }
    });

    // API.md 11.5: a payer's new method is saved with a payment of this amount, refunded at once.
    it("takes a payment of its verification amount, saving the method, for every method it saves for later charges", async () => {
      const provider = chargingProvider();
      const currency = provider.capabilities.currencies[0] ?? "RUB";
      for (const method of chargeableLater(provider.capabilities)) {
        const amount = verificationAmountOf(provider.capabilities.verificationAmount, method);
        expect(amount).toMatch(/^[1-9][0-9]*$/);
        const request = requestOf(provider, { method, money: { amount, currency }, saveMethod: true });
        const created = await provider.createPayment(request);
        expect(created._unsafeUnwrap()).toMatchObject({ status: "pending", money: request.money });
      }
    });

    it("answers one key with one payment, refuses it with another amount, and makes two for two keys", async () => {
      const provider = chargingProvider();
      const request = requestOf(provider);
      const first = (await provider.createPayment(request))._unsafeUnwrap();
      const parallel = await Promise.all(Array.from({ length: 10 }, () => provider.createPayment(request)));
      for (const again of parallel) expect(again._unsafeUnwrap()).toEqual(first);
      const changed = await provider.createPayment({
        ...request,
        money: { ...request.money, amount: "250001" },
      });
      expect(changed._unsafeUnwrapErr().code).toBe("failed");
      const other = (await provider.createPayment(requestOf(provider)))._unsafeUnwrap();
      expect(other.providerPaymentId).not.toBe(first.providerPaymentId);
    });

    // Both ways, so no provider skips it: one that can cancel a pending payment does; one that says
    // it cannot refuses (`failed`, as the port says) and leaves the payment as it was.
    it("cancels a pending payment when it says it can, else refuses and leaves it pending", async () => {
      const provider = chargingProvider();
      const created = (await provider.createPayment(requestOf(provider)))._unsafeUnwrap();
      const request = { providerPaymentId: created.providerPaymentId, idempotencyKey: randomKey() };
      const canceled = await provider.cancelPayment(request);
      const after = (await provider.getPayment(created.providerPaymentId))._unsafeUnwrap().status;
      if (provider.capabilities.cancelPending) {
        expect(canceled._unsafeUnwrap().status).toBe("canceled");
        expect(after).toBe("canceled");
      } else {
        expect(canceled._unsafeUnwrapErr().code).toBe("failed");
        expect(after).toBe(created.status);
      }
    });

    it("finds a payment by the key that created it, and nothing for another key", async () => {
      const provider = chargingProvider();
      const request = requestOf(provider);
      const lookupOf = (made: PaymentRequest) => ({
        idempotencyKey: made.idempotencyKey,
        paymentId: made.paymentId,
        createdAt: new Date(Date.now() - 1000),
      });
      const created = (await provider.createPayment(request))._unsafeUnwrap();
      const found = (await provider.findPaymentByKey(lookupOf(request)))._unsafeUnwrap();
      expect(found).toMatchObject({ providerPaymentId: created.providerPaymentId, status: "pending" });
      expect((await provider.findPaymentByKey(lookupOf(requestOf(provider))))._unsafeUnwrap()).toBeNull();
    });

    it("reports an unknown payment as an error, never as a payment", async () => {
      const result = await chargingProvider().getPayment(`unknown-${randomKey()}`);
      expect(result.isErr()).toBe(true);
    });
  });
}

function randomKey(): string {
  return `contract-${globalThis.crypto.randomUUID()}`;
}
