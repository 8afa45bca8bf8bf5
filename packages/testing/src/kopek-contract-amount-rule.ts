import { describe, expect, it } from "vitest";
import { reconcilerOf } from "./harness-reads.js";
import {
  createHarness,
  invoiceBody,
  json,
  type KopekContractOptions,
  type KopekHarness,
  subscriptionBody,
} from "./kopek-harness.js";

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;
const ASKED = { amount: "149900", currency: "RUB" };

const paymentsOf = async (h: KopekHarness, query: Record<string, string>) =>
  json(await h.get("/v1/payments", query)).data as Record<string, unknown>[];

/** The money of each word Kopek refused, as `onAmountMismatch` was told. */
const refusedAnswers = (h: KopekHarness) => h.amountMismatches().map((m) => m.answered);

/**
 * API.md 10.1: a provider's word is trusted only for the amount and currency Kopek asked for. A word
 * for other money settles nothing: the payment stays pending (and is asked about again), nothing is
 * paid, activated or counted, and each such word is reported once to `onAmountMismatch`.
 */
export function registerAmountRuleTests(options: KopekContractOptions): void {
  describe("a provider's word for other money (API.md 10.1)", () => {
    it("pays no invoice on a success for another amount — not on the payer's return, a notification or a check — until the provider names the invoice's money", async () => {
      const h = await createHarness(options, { paymentPage: "kopek" });
      const invoiceId = json(await h.call("/v1/invoices", invoiceBody())).id as string;
      h.misstateMoney("amount");
      const started = (await h.kopek.startPayment({ invoiceId, method: "card" }))._unsafeUnwrap();
      if (started.kind !== "confirm") throw new Error("the invoice is not payable");
      const providerPaymentId = started.payment.providerPaymentId ?? "";
      // A pending word settles nothing whatever its money: nothing to refuse yet.
      expect(h.amountMismatches()).toEqual([]);
      h.provider.confirm(providerPaymentId, "succeed");

      const returned = (
        await h.kopek.checkPayment({ invoiceId, paymentId: started.payment.id })
      )._unsafeUnwrap();
      expect(returned.payment).toMatchObject({ status: "pending", providerPaymentId });
      const notified = await h.kopek.providerNotification({
        projectId: h.project.id,
        providerKind: h.project.provider.kind,
        notification: h.provider.notificationOf(providerPaymentId),
      });
      expect(notified.isOk()).toBe(true);
      h.clock.advance(2 * MINUTE_MS);
      expect(await reconcilerOf(h).runOnce()).toMatchObject({ settled: 0 });

      expect(json(await h.get(`/v1/invoices/${invoiceId}`))).toMatchObject({
        status: "created",
        paidAt: null,
      });
      expect(await paymentsOf(h, { invoiceId })).toMatchObject([{ status: "pending", providerPaymentId }]);
      // One report per word: the return, the notification, the reconciler's check.
      expect(refusedAnswers(h)).toEqual([
        { amount: "149901", currency: "RUB" },
        expect.anything(),
        expect.anything(),
      ]);
      expect(h.amountMismatches()[0]).toMatchObject({
        projectId: h.project.id,
        kind: "payment",
        paymentId: started.payment.id,
        refundId: null,
        providerPaymentId,
        expected: ASKED,
        status: "succeeded",
      });

      // Its check continues: once the provider's word names the invoice's money, it is paid.
      h.misstateMoney(null);
      h.clock.advance(DAY_MS / 2);
      await reconcilerOf(h).runOnce();
      expect(json(await h.get(`/v1/invoices/${invoiceId}`))).toMatchObject({ status: "paid" });
      expect(h.amountMismatches()).toHaveLength(3);
    });

    it("leaves a subscription incomplete when its first charge is answered in another currency", async () => {
      const h = await createHarness(options);
      h.misstateMoney("currency");
      const created = await h.call("/v1/subscriptions", subscriptionBody());
      expect(created.status).toBe(201);
      const id = json(created).id as string;
      expect(json(created)).toMatchObject({ status: "incomplete", cyclesStarted: 0, lastChargedAt: null });
      const [payment] = await paymentsOf(h, { subscriptionId: id });
      expect(payment).toMatchObject({ status: "pending", cycle: 1, providerPaymentId: expect.any(String) });
      expect(h.amountMismatches()).toMatchObject([
        {
          kind: "payment",
          expected: ASKED,
          answered: { amount: "149900", currency: "USD" },
          status: "succeeded",
        },
      ]);

      h.clock.advance(2 * MINUTE_MS);
      await reconcilerOf(h).runOnce();
      expect(json(await h.get(`/v1/subscriptions/${id}`))).toMatchObject({ status: "incomplete" });
      expect(h.amountMismatches()).toHaveLength(2);
    });

    it("counts no renewal charged for another amount: the charge stays pending and is never sent again", async () => {
      const h = await createHarness(options);
      const id = json(await h.call("/v1/subscriptions", subscriptionBody())).id as string;
      h.misstateMoney("amount");
      h.clock.advance(31 * DAY_MS);
      expect(await h.worker().runOnce()).toMatchObject({ charged: 0, pending: 1 });
      expect(json(await h.get(`/v1/subscriptions/${id}`))).toMatchObject({
        status: "active",
        cyclesStarted: 1,
      });
      const renewal = (await paymentsOf(h, { subscriptionId: id })).find((p) => p.cycle === 2);
      expect(renewal).toMatchObject({ status: "pending", providerPaymentId: expect.any(String) });
      expect(h.amountMismatches()).toHaveLength(1);
      const calls = h.chargeCalls();

      // Asked again (not charged again): still the wrong money, still pending, reported again.
      h.clock.advance(DAY_MS);
      await h.worker().runOnce();
      expect(h.chargeCalls()).toBe(calls);
      expect(json(await h.get(`/v1/subscriptions/${id}`))).toMatchObject({ cyclesStarted: 1 });
      expect(h.amountMismatches()).toHaveLength(2);
    });

    it("settles no refund answered for another amount: it stays pending and moves nothing refunded", async () => {
      const h = await createHarness(options);
      const subscriptionId = json(await h.call("/v1/subscriptions", subscriptionBody())).id as string;
      const [payment] = (await paymentsOf(h, { subscriptionId })) as { id: string }[];
      h.misstateMoney("amount");
      const refund = json(
        await h.call(`/v1/payments/${payment?.id}/refunds`, { amount: { ...ASKED, amount: "1000" } }),
      );
      expect(refund).toMatchObject({ status: "pending" });
      expect(json(await h.get(`/v1/payments/${payment?.id}`))).toMatchObject({
        amountRefunded: { amount: "0", currency: "RUB" },
      });
      expect(h.amountMismatches()).toMatchObject([
        {
          kind: "refund",
          paymentId: payment?.id,
          refundId: refund.id,
          expected: { amount: "1000", currency: "RUB" },
          answered: { amount: "1001", currency: "RUB" },
        },
      ]);
    });
  });
}
