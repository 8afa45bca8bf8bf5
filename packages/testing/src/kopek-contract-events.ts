import { createInvoiceSweeper, type EventType } from "@kopek/core";
import { describe, expect, it } from "vitest";
import { events } from "./harness-reads.js";
import {
  createHarness,
  invoiceBody,
  json,
  type KopekContractOptions,
  type KopekHarness,
  payThroughProvider,
  subscriptionBody,
} from "./kopek-harness.js";

const DAY_MS = 24 * 60 * 60 * 1000;

/** The newest event is `type`, and its data is the resource exactly as GET shows it now. */
async function expectLastEvent(h: KopekHarness, type: EventType, path: string): Promise<void> {
  const last = (await events(h)).at(-1);
  expect(last?.type).toBe(type);
  expect(last?.data).toEqual(json(await h.get(path)));
}

const types = async (h: KopekHarness) => (await events(h)).map((e) => e.type);

/** The events of API.md 6 through `kopek.handle` and the workers: one per change, none otherwise. */
export function registerEventTests(options: KopekContractOptions): void {
  describe("events", () => {
    it("subscription.created on create; none on a replay, a reused key with another body or a refused body", async () => {
      const h = await createHarness(options);
      const key = crypto.randomUUID();
      const created = await h.call("/v1/subscriptions", subscriptionBody(), key);
      const id = json(created).id as string;
      await expectLastEvent(h, "subscription.created", `/v1/subscriptions/${id}`);
      expect((await h.call("/v1/subscriptions", subscriptionBody(), key)).body).toBe(created.body);
      const conflicting = await h.call("/v1/subscriptions", { ...subscriptionBody(), method: "sbp" }, key);
      expect(conflicting.status).toBeGreaterThanOrEqual(400);
      expect((await h.call("/v1/subscriptions", { ...subscriptionBody(), amount: "1" })).status).toBe(422);
      expect(await types(h)).toEqual(["subscription.created"]);
    });

    it("subscription.renewed on a renewal; nothing more when the worker finds nothing due", async () => {
      const h = await createHarness(options);
      const id = json(await h.call("/v1/subscriptions", subscriptionBody())).id as string;
      const worker = h.worker();
      h.clock.advance(28 * DAY_MS);
      expect(await worker.runOnce()).toMatchObject({ charged: 1 });
      await expectLastEvent(h, "subscription.renewed", `/v1/subscriptions/${id}`);
      expect(await worker.runOnce()).toMatchObject({ claimed: 0 });
      expect(await types(h)).toEqual(["subscription.created", "subscription.renewed"]);
    });

    it("subscription.past_due on a decline, none on an outage, renewed on recovery", async () => {
      const h = await createHarness(options);
      const id = json(await h.call("/v1/subscriptions", subscriptionBody())).id as string;
      const worker = h.worker();
      h.clock.advance(28 * DAY_MS);
      h.injectChargeFaults("outage");
      expect(await worker.runOnce()).toMatchObject({ unavailable: 1 });
      expect(await types(h)).toEqual(["subscription.created"]);
      h.clock.advance(5 * 60_000);
      h.injectChargeFaults("decline");
      expect(await worker.runOnce()).toMatchObject({ declined: 1 });
      await expectLastEvent(h, "subscription.past_due", `/v1/subscriptions/${id}`);
      h.clock.advance(DAY_MS);
      expect(await worker.runOnce()).toMatchObject({ charged: 1 });
      await expectLastEvent(h, "subscription.renewed", `/v1/subscriptions/${id}`);
    });

    it("subscription.canceled when dunning runs out, after one past_due", async () => {
      const h = await createHarness(options);
      const id = json(await h.call("/v1/subscriptions", subscriptionBody())).id as string;
      const worker = h.worker();
      h.clock.advance(28 * DAY_MS);
      h.injectChargeFaults("decline", "decline", "decline", "decline");
      for (const wait of [0, DAY_MS, 2 * DAY_MS, 2 * DAY_MS]) {
        h.clock.advance(wait);
        expect(await worker.runOnce()).toMatchObject({ declined: 1 });
      }
      await expectLastEvent(h, "subscription.canceled", `/v1/subscriptions/${id}`);
      expect((await events(h)).at(-1)?.data).toMatchObject({ cancelReason: "payment_failed" });
      // Every declined charge is a canceled Payment of its own; the subscription's status changes twice.
      expect(await types(h)).toEqual([
        "subscription.created",
        "payment.canceled",
        "subscription.past_due",
        "payment.canceled",
        "payment.canceled",
        "payment.canceled",
        "subscription.canceled",
      ]);
    });

    it("subscription.canceled and invoice.canceled on cancel, once, however often it is asked", async () => {
      const h = await createHarness(options);
      const sub = json(await h.call("/v1/subscriptions", subscriptionBody())).id as string;
      const inv = json(await h.call("/v1/invoices", invoiceBody())).id as string;
      const key = crypto.randomUUID();
      expect((await h.call(`/v1/subscriptions/${sub}/cancel`, {}, key)).status).toBe(200);
      await expectLastEvent(h, "subscription.canceled", `/v1/subscriptions/${sub}`);
      await h.call(`/v1/subscriptions/${sub}/cancel`, {}, key);
      await h.call(`/v1/subscriptions/${sub}/cancel`, {});
      expect((await h.call(`/v1/invoices/${inv}/cancel`, {})).status).toBe(200);
      await expectLastEvent(h, "invoice.canceled", `/v1/invoices/${inv}`);
      await h.call(`/v1/invoices/${inv}/cancel`, {});
      expect(await types(h)).toEqual(["subscription.created", "subscription.canceled", "invoice.canceled"]);
    });

    it("invoice.expired from the sweeper, once; none for an invoice paid in time", async () => {
      const h = await createHarness(options);
      const expiresAt = new Date(h.clock.now().getTime() + DAY_MS).toISOString();
      const lapsing = json(await h.call("/v1/invoices", { ...invoiceBody(), expiresAt })).id as string;
      const paid = json(await h.call("/v1/invoices", { ...invoiceBody(), expiresAt })).id as string;
      expect((await payThroughProvider(h, paid, "card")).invoice.status).toBe("paid");
      const sweeper = createInvoiceSweeper({ storage: h.storage, clock: h.clock });
      expect(await sweeper.runOnce()).toBe(0);
      h.clock.advance(DAY_MS + 1);
      expect(await sweeper.runOnce()).toBe(1);
      await expectLastEvent(h, "invoice.expired", `/v1/invoices/${lapsing}`);
      expect(await sweeper.runOnce()).toBe(0);
      expect(await types(h)).toEqual(["invoice.paid", "invoice.expired"]);
    });

    it("invoice.paid on the provider's word, once; payment.canceled on a decline; none on a repeated check or a closed invoice", async () => {
      const h = await createHarness(options);
      const id = json(await h.call("/v1/invoices", invoiceBody())).id as string;
      const declined = await payThroughProvider(h, id, "card", "decline");
      expect(declined.payment.status).toBe("canceled");
      await expectLastEvent(h, "payment.canceled", `/v1/payments/${declined.payment.id}`);
      const paid = await payThroughProvider(h, id, "card");
      expect(paid.invoice.status).toBe("paid");
      await expectLastEvent(h, "invoice.paid", `/v1/invoices/${id}`);
      await h.kopek.checkPayment({ invoiceId: id, paymentId: paid.payment.id });
      expect((await h.kopek.startPayment({ invoiceId: id, method: "sbp" }))._unsafeUnwrap().kind).toBe(
        "closed",
      );
      const canceled = json(await h.call("/v1/invoices", invoiceBody())).id as string;
      await h.call(`/v1/invoices/${canceled}/cancel`, {});
      const closed = await h.kopek.startPayment({ invoiceId: canceled, method: "card" });
      expect(closed._unsafeUnwrap().kind).toBe("closed");
      expect(await types(h)).toEqual(["payment.canceled", "invoice.paid", "invoice.canceled"]);
    });
  });
}
