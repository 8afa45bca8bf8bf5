import {
  PAYMENT_METHODS,
  type PaymentMethod,
  type PaymentProvider,
  type ProviderError,
  type StoredMethodCharge,
} from "@kopek/core";
import { describe, expect, it } from "vitest";
import { describeMethodSavesContract, type MethodSavesUnderTest } from "./provider-contract-method-saves.js";
import { describePaymentContract } from "./provider-contract-payments.js";

/** Method refs the provider under test treats specially; each outcome is tested only when its ref is given. */
export interface ProviderContractOptions {
  /** A ref whose charge is declined. */
  readonly declinedRef?: string;
  /** A ref whose describe and charge report an outage. */
  readonly unavailableRef?: string;
  /** A ref whose charge is approved. Default: `pm_contract_approved`. */
  readonly approvedRef?: string;
  /** A ref whose charge is `pending` first and succeeds when next asked about (`getPayment`). */
  readonly pendingRef?: string;
  /** The provider with saving with no payment turned on, and the payer's part (API.md 11.5). */
  readonly methodSaves?: MethodSavesUnderTest;
}

type ProviderFactory = (options: { storedMethodCharge: boolean }) => PaymentProvider;

/** The behaviour Kopek relies on from every `PaymentProvider`. A fresh provider and fresh keys per test. */
export function describeProviderContract(
  name: string,
  factory: ProviderFactory,
  options: ProviderContractOptions = {},
): void {
  const { declinedRef, unavailableRef, pendingRef, approvedRef = "pm_contract_approved" } = options;
  const chargingProvider = () => factory({ storedMethodCharge: true });
  const { methods: paymentMethods, storedMethodCharge } = chargingProvider().capabilities;
  const chargeMethod = storedMethodCharge[0];

  describe(`${name} provider contract`, () => {
    describe("capabilities", () => {
      it("names known methods and ISO 4217 currencies", () => {
        const { methods, currencies } = chargingProvider().capabilities;
        expect(methods.length).toBeGreaterThan(0);
        for (const method of methods) expect(PAYMENT_METHODS).toContain(method);
        expect(currencies.length).toBeGreaterThan(0);
        for (const currency of currencies) expect(currency).toMatch(/^[A-Z]{3}$/);
      });

      it("charges stored methods only among its methods, and none when told not to", () => {
        const { methods, storedMethodCharge } = chargingProvider().capabilities;
        for (const method of storedMethodCharge) expect(methods).toContain(method);
        for (const method of chargingProvider().capabilities.saveMethod) expect(methods).toContain(method);
        expect(factory({ storedMethodCharge: false }).capabilities.storedMethodCharge).toEqual([]);
      });
    });

    describe("describeStoredMethod", () => {
      it("describes the same ref the same way every time", async () => {
        const provider = chargingProvider();
        for (const method of provider.capabilities.methods) {
          const first = await provider.describeStoredMethod({ ref: approvedRef, method });
          const second = await provider.describeStoredMethod({ ref: approvedRef, method });
          expect(first.isOk()).toBe(true);
          expect(second._unsafeUnwrap()).toEqual(first._unsafeUnwrap());
        }
      });

      it.runIf(paymentMethods.includes("card"))(
        "describes a card by its first six and last four digits and its length",
        async () => {
          const provider = chargingProvider();
          const description = (
            await provider.describeStoredMethod({ ref: approvedRef, method: "card" })
          )._unsafeUnwrap();
          expect(description.kind).toBe("card");
          if (description.kind !== "card") return;
          expect(description.first6).toMatch(/^\d{6}$/);
          expect(description.last4).toMatch(/^\d{4}$/);
          expect(Number.isInteger(description.length)).toBe(true);
          expect(description.length).toBeGreaterThanOrEqual(13);
          expect(description.length).toBeLessThanOrEqual(19);
        },
      );

      it.runIf(unavailableRef !== undefined)("reports an outage without echoing the ref", async () => {
        const ref = unavailableRef ?? "";
        const method = paymentMethods[0] ?? "card";
        const result = await chargingProvider().describeStoredMethod({ ref, method });
        expectProviderError(result._unsafeUnwrapErr(), "unavailable", ref);
      });
    });

    describe.runIf(chargeMethod !== undefined)("chargeStoredMethod", () => {
      const method: PaymentMethod = chargeMethod ?? "card";
      const chargeOf = (
        provider: PaymentProvider,
        overrides: Partial<StoredMethodCharge> = {},
      ): StoredMethodCharge => ({
        paymentId: globalThis.crypto.randomUUID(),
        ref: approvedRef,
        method,
        money: { amount: "149900", currency: provider.capabilities.currencies[0] ?? "RUB" },
        description: "Kopek provider contract",
        receipt: null,
        idempotencyKey: randomKey(),
        ...overrides,
      });

      it("never charges one idempotency key twice", async () => {
        const provider = chargingProvider();
        const request = chargeOf(provider);
        const first = (await provider.chargeStoredMethod(request))._unsafeUnwrap();
        const second = (await provider.chargeStoredMethod(request))._unsafeUnwrap();
        // With the money it was asked for: Kopek settles on no other (API.md 10.1).
        expect(first).toMatchObject({ status: "succeeded", failureCode: null, money: request.money });
        expect(first.providerPaymentId).not.toBe("");
        expect(second.providerPaymentId).toBe(first.providerPaymentId);
        expect((await provider.getPayment(first.providerPaymentId))._unsafeUnwrap()).toMatchObject({
          status: "succeeded",
          money: request.money,
        });
      });

      it("charges one key once under 20 parallel calls", async () => {
        const provider = chargingProvider();
        const request = chargeOf(provider);
        const results = await Promise.all(
          Array.from({ length: 20 }, () => provider.chargeStoredMethod(request)),
        );
        const ids = new Set(results.map((result) => result._unsafeUnwrap().providerPaymentId));
        expect(ids.size).toBe(1);
      });

      it("charges two keys as two charges", async () => {
        const provider = chargingProvider();
        const first = (await provider.chargeStoredMethod(chargeOf(provider)))._unsafeUnwrap();
        const second = (await provider.chargeStoredMethod(chargeOf(provider)))._unsafeUnwrap();
        expect(second.providerPaymentId).not.toBe(first.providerPaymentId);
      });

      it.runIf(declinedRef !== undefined)("answers a decline as a canceled payment", async () => {
        const provider = chargingProvider();
        const ref = declinedRef ?? "";
        const declined = (await provider.chargeStoredMethod(chargeOf(provider, { ref })))._unsafeUnwrap();
        expect(declined).toMatchObject({ status: "canceled", failureCode: "payment_declined" });
        expect(JSON.stringify(declined)).not.toContain(ref);
      });

      it.runIf(pendingRef !== undefined)(
        "answers a pending charge, then its outcome when asked, never a second charge",
        async () => {
          const provider = chargingProvider();
          const request = chargeOf(provider, { ref: pendingRef ?? "" });
          const pending = (await provider.chargeStoredMethod(request))._unsafeUnwrap();
          expect(pending).toMatchObject({ status: "pending", failureCode: null });
          const checked = (await provider.getPayment(pending.providerPaymentId))._unsafeUnwrap();
          expect(checked.status).toBe("succeeded");
          const again = (await provider.chargeStoredMethod(request))._unsafeUnwrap();
          expect(again).toMatchObject({ providerPaymentId: pending.providerPaymentId, status: "succeeded" });
        },
      );

      it("refunds a succeeded charge in parts, never beyond it, one refund per key", async () => {
        const provider = chargingProvider();
        const charged = (await provider.chargeStoredMethod(chargeOf(provider)))._unsafeUnwrap();
        const currency = provider.capabilities.currencies[0] ?? "RUB";
        const refundOf = (amount: string, idempotencyKey = randomKey()) => ({
          refundId: globalThis.crypto.randomUUID(),
          providerPaymentId: charged.providerPaymentId,
          money: { amount, currency },
          reason: null,
          idempotencyKey,
        });
        const part = refundOf("100000");
        const first = (await provider.refundPayment(part))._unsafeUnwrap();
        expect(first).toMatchObject({ providerPaymentId: charged.providerPaymentId, money: part.money });
        expect(["pending", "succeeded"]).toContain(first.status);
        expect((await provider.refundPayment(part))._unsafeUnwrap().providerRefundId).toBe(
          first.providerRefundId,
        );
        expect((await provider.getRefund(first.providerRefundId))._unsafeUnwrap().providerRefundId).toBe(
          first.providerRefundId,
        );
        expect((await provider.refundPayment(refundOf("49901"))).isErr()).toBe(true);
        expect((await provider.refundPayment(refundOf("49900")))._unsafeUnwrap().money.amount).toBe("49900");
      });

      it("finds a charge by its key as it stands, and nothing for a key it never charged", async () => {
        const provider = chargingProvider();
        const before = new Date(Date.now() - 1000);
        const request = chargeOf(provider);
        const lookupOf = (charge: StoredMethodCharge) => ({
          idempotencyKey: charge.idempotencyKey,
          paymentId: charge.paymentId,
          createdAt: before,
        });
        expect((await provider.findPaymentByKey(lookupOf(request)))._unsafeUnwrap()).toBeNull();
        const charged = (await provider.chargeStoredMethod(request))._unsafeUnwrap();
        const found = (await provider.findPaymentByKey(lookupOf(request)))._unsafeUnwrap();
        expect(found).toMatchObject({ providerPaymentId: charged.providerPaymentId, status: "succeeded" });
        const other = chargeOf(provider);
        expect((await provider.findPaymentByKey(lookupOf(other)))._unsafeUnwrap()).toBeNull();
        if (declinedRef !== undefined) {
          const declined = chargeOf(provider, { ref: declinedRef });
          const answer = (await provider.chargeStoredMethod(declined))._unsafeUnwrap();
          const seen = (await provider.findPaymentByKey(lookupOf(declined)))._unsafeUnwrap();
          // A decline the provider recorded is found canceled; one it kept no payment for, not at all.
          if (seen !== null)
            expect(seen).toMatchObject({ providerPaymentId: answer.providerPaymentId, status: "canceled" });
        }
      });

      it.runIf(unavailableRef !== undefined)("reports an outage without echoing the ref", async () => {
        const provider = chargingProvider();
        const ref = unavailableRef ?? "";
        const result = await provider.chargeStoredMethod(chargeOf(provider, { ref }));
        expectProviderError(result._unsafeUnwrapErr(), "unavailable", ref);
      });
    });

    describe("createPaymentLink", () => {
      it("returns an absolute URL, the same one for the same key", async () => {
        const provider = chargingProvider();
        const invoiceId = randomKey();
        const request = {
          invoiceId,
          money: { amount: "250000", currency: provider.capabilities.currencies[0] ?? "RUB" },
          description: "Kopek provider contract",
          methods: provider.capabilities.methods,
          expiresAt: new Date(Date.now() + 86_400_000),
          hostedPageUrl: `https://pay.kopek.test/invoices/${invoiceId}`,
          idempotencyKey: randomKey(),
        };
        const first = (await provider.createPaymentLink(request))._unsafeUnwrap();
        expect(["http:", "https:"]).toContain(new URL(first.url).protocol);
        expect((await provider.createPaymentLink(request))._unsafeUnwrap()).toEqual(first);
      });
    });

    describePaymentContract(chargingProvider);
    if (options.methodSaves !== undefined) describeMethodSavesContract(options.methodSaves);
  });
}

function expectProviderError(error: ProviderError, code: ProviderError["code"], ref: string): void {
  expect(error.code).toBe(code);
  expect(error.message).not.toContain(ref);
}

function randomKey(): string {
  return `contract-${globalThis.crypto.randomUUID()}`;
}
