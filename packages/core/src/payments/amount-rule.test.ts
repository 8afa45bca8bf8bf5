// @kopek/testing's fixtures by path: that package depends on core, so core cannot depend on it.

import fc from "fast-check";
import { err, ok } from "neverthrow";
import { describe, expect, it } from "vitest";
import { samplePayment, sampleRefund } from "../../../testing/src/fixtures.js";
import type { Money } from "../domain/model.js";
import type { ProviderPayment, ProviderRefund } from "../ports/payment-provider.js";
import {
  type AmountMismatch,
  moneyAgrees,
  sameMoney,
  trustedPaymentAnswer,
  trustedRefundAnswer,
} from "./amount-rule.js";
import { NO_PAYMENT_MADE } from "./payment-records.js";

const amountArb = fc.bigInt({ min: 0n, max: 10n ** 18n - 1n }).map(String);
const currencyArb = fc.constantFrom("RUB", "USD", "EUR", "JPY", "KZT");
const moneyArb = fc.record({ amount: amountArb, currency: currencyArb });
/** Two sums that differ in their amount, their currency, or both. */
const differingArb = fc
  .tuple(moneyArb, moneyArb)
  .filter(([a, b]) => a.amount !== b.amount || a.currency !== b.currency);
const finalArb = fc.constantFrom("succeeded" as const, "canceled" as const);

const wordOf = (status: ProviderPayment["status"], money: Money | null): ProviderPayment => ({
  providerPaymentId: "pay_1",
  status,
  failureCode: status === "canceled" ? "payment_declined" : null,
  methodMask: "2200 70** **** 1234",
  savedMethod: status === "succeeded" ? { ref: "tok_1", methodMask: null } : null,
  money,
});

describe("the amount rule (API.md 10.1)", () => {
  it("acts on any word whose money is the money Kopek asked for", () => {
    fc.assert(
      fc.property(moneyArb, fc.constantFrom("pending", "succeeded", "canceled"), (money, status) => {
        const payment = samplePayment("p", { status: "pending", amount: money });
        const word = wordOf(status, { ...money });
        const told: AmountMismatch[] = [];
        expect(trustedPaymentAnswer(payment, word, (m) => told.push(m))).toBe(word);
        expect(told).toEqual([]);
      }),
    );
  });

  it("never settles on a final word for another amount or currency: pending, nothing saved, told once", () => {
    fc.assert(
      fc.property(differingArb, finalArb, ([asked, answered], status) => {
        expect(sameMoney(asked, answered)).toBe(false);
        expect(moneyAgrees(asked, status, answered)).toBe(false);
        const payment = samplePayment("p", { status: "pending", amount: asked });
        const told: AmountMismatch[] = [];
        const acted = trustedPaymentAnswer(payment, wordOf(status, answered), (m) => told.push(m));
        expect(acted).toEqual({
          providerPaymentId: "pay_1",
          status: "pending",
          failureCode: null,
          methodMask: "2200 70** **** 1234",
          savedMethod: null,
          money: answered,
        });
        expect(told).toEqual([
          {
            projectId: "p",
            provider: "sandbox",
            kind: "payment",
            paymentId: payment.id,
            refundId: null,
            providerPaymentId: "pay_1",
            expected: asked,
            answered,
            status,
          },
        ]);
      }),
    );
  });

  it("refuses a success that names no money, and lets a word that moved nothing (NO_PAYMENT_MADE) end a payment", () => {
    fc.assert(
      fc.property(moneyArb, (money) => {
        expect(moneyAgrees(money, "succeeded", null)).toBe(false);
        const payment = samplePayment("p", { status: "pending", amount: money });
        expect(trustedPaymentAnswer(payment, wordOf("succeeded", null), undefined).status).toBe("pending");
        expect(trustedPaymentAnswer(payment, NO_PAYMENT_MADE, undefined)).toBe(NO_PAYMENT_MADE);
      }),
    );
  });

  it("lets a pending word pass whatever money it names: it settles nothing", () => {
    fc.assert(
      fc.property(differingArb, ([asked, answered]) => {
        expect(moneyAgrees(asked, "pending", answered)).toBe(true);
      }),
    );
  });

  it("keeps a refund pending on a final word for other money than the Refund's, and tells it", () => {
    fc.assert(
      fc.property(differingArb, finalArb, ([asked, answered], status) => {
        const payment = samplePayment("p");
        const refund = sampleRefund(payment, { amount: asked });
        const word: ProviderRefund = {
          providerRefundId: "re_1",
          providerPaymentId: payment.providerPaymentId ?? "",
          status,
          money: answered,
        };
        const told: AmountMismatch[] = [];
        const acted = trustedRefundAnswer(refund, payment, ok(word), (m) => told.push(m));
        expect(acted._unsafeUnwrap()).toEqual({ ...word, status: "pending" });
        expect(told).toMatchObject([
          { kind: "refund", refundId: refund.id, expected: asked, answered, status },
        ]);
        const same = ok({ ...word, money: { ...asked } });
        expect(trustedRefundAnswer(refund, payment, same, (m) => told.push(m))).toBe(same);
        expect(told).toHaveLength(1);
      }),
    );
  });

  it("passes an error through: no word, nothing to judge", () => {
    const payment = samplePayment("p");
    const failed = err({ code: "unavailable" as const, message: "down" });
    expect(trustedRefundAnswer(sampleRefund(payment), payment, failed, undefined)).toBe(failed);
  });
});
