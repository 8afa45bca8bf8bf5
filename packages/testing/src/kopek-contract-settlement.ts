import { createPaymentReconciler, type EventType } from "@kopek/core";
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
// The sandbox's refs whose charges are pending first, then succeed (or decline) when next asked about.
const PENDING_REF = "sandbox_pending_contract";
const PENDING_DECLINE_REF = "sandbox_pending_decline_contract";

const paymentsOf = async (h: KopekHarness, query: Record<string, string>) =>
  json(await h.get("/v1/payments", query)).data as Record<string, unknown>[];

async function eventTypes(h: KopekHarness): Promise<EventType[]> {
  const stored = (await h.storage.listEventDeliveries(h.project.id))._unsafeUnwrap();
  return stored.map(({ event }) => event.type);
}

/**
 * API.md 10.3.5 and 10.5: charges the provider answers `pending` are settled on its later word, never
 * charged again meanwhile; money that moved for an invoice already paid goes back.
 */
export function registerSettlementTests(options: KopekContractOptions): void {
  describe("charges settled later", () => {
    it("creates a subscription incomplete while its first charge is pending, and activates it on the provider's word", async () => {
      const h = await createHarness(options, { pendingChargeWaitMs: 0 });
      const created = await h.call("/v1/subscriptions", subscriptionBody(PENDING_REF));
      expect(created.status).toBe(201);
      const id = json(created).id as string;
      expect(json(created)).toMatchObject({ status: "incomplete", cyclesStarted: 0, lastChargedAt: null });
      const [pending] = await paymentsOf(h, { subscriptionId: id });
      expect(pending).toMatchObject({ status: "pending", cycle: 1, providerPaymentId: expect.any(String) });
      // Never renewed while incomplete, however late it gets.
      h.clock.advance(40 * DAY_MS);
      expect(await h.worker().runOnce()).toMatchObject({ claimed: 0 });

      expect(await reconcilerOf(h).runOnce()).toEqual({ claimed: 1, settled: 1 });
      expect(json(await h.get(`/v1/subscriptions/${id}`))).toMatchObject({
        status: "active",
        cyclesStarted: 1,
        lastChargedAt: h.clock.now().toISOString(),
      });
      expect((await paymentsOf(h, { subscriptionId: id }))[0]).toMatchObject({ status: "succeeded" });
      expect(await eventTypes(h)).toEqual(["subscription.created", "subscription.activated"]);
      expect(h.provider.chargesMade()).toBe(1);
    });

    it("cancels an incomplete subscription whose first charge is declined later", async () => {
      const h = await createHarness(options, { pendingChargeWaitMs: 0 });
      const id = json(await h.call("/v1/subscriptions", subscriptionBody(PENDING_DECLINE_REF))).id as string;
      h.clock.advance(MINUTE_MS);
      await reconcilerOf(h).runOnce();
      expect(json(await h.get(`/v1/subscriptions/${id}`))).toMatchObject({
        status: "canceled",
        cancelReason: "payment_failed",
        cyclesStarted: 0,
      });
      expect((await paymentsOf(h, { subscriptionId: id }))[0]).toMatchObject({
        status: "canceled",
        failureCode: "payment_declined",
      });
      expect(await eventTypes(h)).toEqual([
        "subscription.created",
        "payment.canceled",
        "subscription.canceled",
      ]);
      expect(h.provider.chargesMade()).toBe(0);
    });

    it("waits for a pending first charge, asking again, and answers active when it settles in time", async () => {
      const h = await createHarness(options, { pendingChargeWaitMs: 5_000 });
      const created = await h.call("/v1/subscriptions", subscriptionBody(PENDING_REF));
      expect(json(created)).toMatchObject({ status: "active", cyclesStarted: 1 });
      const id = json(created).id as string;
      expect((await paymentsOf(h, { subscriptionId: id }))[0]).toMatchObject({ status: "succeeded" });
      expect(h.provider.chargesMade()).toBe(1);
    });

    it("never charges a renewal again while it is pending, and renews when the provider decides", async () => {
      const h = await createHarness(options, { pendingChargeWaitMs: 5_000 });
      const id = json(await h.call("/v1/subscriptions", subscriptionBody(PENDING_REF))).id as string;
      const worker = h.worker();
      h.clock.advance(28 * DAY_MS);
      expect(await worker.runOnce()).toMatchObject({ claimed: 1, pending: 1 });
      const calls = h.chargeCalls();
      const renewal = (await paymentsOf(h, { subscriptionId: id, status: "pending" }))[0];
      expect(renewal).toMatchObject({ cycle: 2, status: "pending" });
      expect(json(await h.get(`/v1/subscriptions/${id}`))).toMatchObject({
        status: "active",
        cyclesStarted: 1,
      });

      // The worker comes back: it asks the provider (which decides now) instead of charging again.
      h.clock.advance(10 * MINUTE_MS);
      expect(await worker.runOnce()).toMatchObject({ claimed: 1, charged: 1 });
      expect(h.chargeCalls()).toBe(calls);
      expect(json(await h.get(`/v1/subscriptions/${id}`))).toMatchObject({ cyclesStarted: 2 });
      expect((await paymentsOf(h, { subscriptionId: id })).map((p) => [p.cycle, p.status])).toEqual([
        [2, "succeeded"],
        [1, "succeeded"],
      ]);
      expect(h.provider.chargesMade()).toBe(2);
      expect((await eventTypes(h)).at(-1)).toBe("subscription.renewed");
    });

    it("keeps a renewal with no answer as a pending payment and sends it again with the same key", async () => {
      const h = await createHarness(options);
      const id = json(await h.call("/v1/subscriptions", subscriptionBody())).id as string;
      const worker = h.worker();
      h.clock.advance(28 * DAY_MS);
      h.injectChargeFaults("charge-then-outage");
      expect(await worker.runOnce()).toMatchObject({ unavailable: 1 });
      const [open] = await paymentsOf(h, { subscriptionId: id, status: "pending" });
      expect(open).toMatchObject({ cycle: 2, providerPaymentId: null });

      h.clock.advance(10 * MINUTE_MS);
      expect(await worker.runOnce()).toMatchObject({ charged: 1 });
      // One payment for the cycle (the open one, settled) and one charge at the provider.
      expect((await paymentsOf(h, { subscriptionId: id })).map((p) => [p.id === open?.id, p.status])).toEqual(
        [
          [true, "succeeded"],
          [false, "succeeded"],
        ],
      );
      expect(h.provider.chargesMade()).toBe(2);
    });
  });

  describe("attempts of a closed invoice, and attempts Kopek never heard back about", () => {
    it("cancels at the provider a payment still pending when its invoice was canceled", async () => {
      const h = await createHarness(options, { paymentPage: "kopek" });
      const id = json(await h.call("/v1/invoices", invoiceBody())).id as string;
      const started = (
        await h.kopek.startPayment({ projectId: h.project.id, invoiceId: id, method: "card" })
      )._unsafeUnwrap();
      if (started.kind !== "confirm") throw new Error("not payable");
      expect((await h.call(`/v1/invoices/${id}/cancel`, {})).status).toBe(200);
      h.clock.advance(MINUTE_MS);
      expect(await reconcilerOf(h).runOnce()).toEqual({ claimed: 1, settled: 1 });
      const [payment] = await paymentsOf(h, { invoiceId: id });
      expect(payment).toMatchObject({ status: "canceled", failureCode: "expired" });
      // The payer can no longer pay it at the provider: the provider keeps it canceled.
      h.provider.confirm(started.payment.providerPaymentId as string, "succeed");
      const asked = await h.provider.getPayment(started.payment.providerPaymentId as string);
      expect(asked._unsafeUnwrap().status).toBe("canceled");
      expect(json(await h.get(`/v1/invoices/${id}`)).status).toBe("canceled");
    });

    it("asks again, with the attempt's key, for a provider payment whose answer was lost", async () => {
      const h = await createHarness(options, { paymentPage: "kopek" });
      const id = json(await h.call("/v1/invoices", invoiceBody())).id as string;
      h.loseNextCreatePayment();
      const lost = await h.kopek.startPayment({ projectId: h.project.id, invoiceId: id, method: "card" });
      expect(lost._unsafeUnwrapErr().code).toBe("provider_unavailable");
      const [open] = await paymentsOf(h, { invoiceId: id });
      expect(open).toMatchObject({ status: "pending", providerPaymentId: null });

      h.clock.advance(MINUTE_MS);
      const resuming = createPaymentReconciler({
        storage: h.storage,
        providerFor: () => h.provider,
        clock: h.clock,
        publicUrl: () => "https://pay.example.test",
      });
      await resuming.runOnce();
      const [known] = await paymentsOf(h, { invoiceId: id });
      expect(known).toMatchObject({ id: open?.id, status: "pending", providerPaymentId: expect.any(String) });
      // The payer, who was at the provider all along, pays: settled on the next check, one payment.
      h.provider.confirm(known?.providerPaymentId as string, "succeed");
      h.clock.advance(DAY_MS);
      await resuming.runOnce();
      expect(json(await h.get(`/v1/invoices/${id}`)).status).toBe("paid");
      expect(await paymentsOf(h, { invoiceId: id })).toHaveLength(1);
    });
  });

  describe("an invoice paid twice", () => {
    it("refunds the second success in full at once, and keeps one invoice.paid", async () => {
      const h = await createHarness(options, { paymentPage: "kopek" });
      const id = json(await h.call("/v1/invoices", invoiceBody())).id as string;
      // Two tabs: a card attempt and an SBP attempt, both confirmed at the provider.
      const card = (await h.kopek.startPayment({ invoiceId: id, method: "card" }))._unsafeUnwrap();
      const sbp = (await h.kopek.startPayment({ invoiceId: id, method: "sbp" }))._unsafeUnwrap();
      if (card.kind !== "confirm" || sbp.kind !== "confirm") throw new Error("not payable");
      h.provider.confirm(card.payment.providerPaymentId as string, "succeed");
      h.provider.confirm(sbp.payment.providerPaymentId as string, "succeed");
      await h.kopek.checkPayment({ invoiceId: id, paymentId: card.payment.id });
      const second = (
        await h.kopek.checkPayment({ invoiceId: id, paymentId: sbp.payment.id })
      )._unsafeUnwrap();
      expect(second.invoice).toMatchObject({ status: "paid", method: "card" });
      expect(second.payment).toMatchObject({ status: "succeeded", amountRefunded: "149900" });
      const listed = await paymentsOf(h, { invoiceId: id });
      expect(
        listed.map((p) => [p.method, p.status, (p.amountRefunded as { amount: string }).amount]),
      ).toEqual([
        ["sbp", "succeeded", "149900"],
        ["card", "succeeded", "0"],
      ]);
      expect((await eventTypes(h)).filter((type) => type === "invoice.paid")).toHaveLength(1);
      // Refunded through a stored Refund (API.md 10.6), announced like any refund.
      const refunds = json(await h.get("/v1/refunds", { paymentId: sbp.payment.id })).data;
      expect(refunds).toEqual([
        expect.objectContaining({ status: "succeeded", amount: invoiceBody().amount }),
      ]);
      expect((await eventTypes(h)).filter((type) => type === "refund.succeeded")).toHaveLength(1);
    });
  });
}
