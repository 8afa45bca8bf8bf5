import type { StoredMethodCharge } from "@kopek/core";
import { describe, expect, it } from "vitest";
import { createHarness, json, type KopekContractOptions, subscriptionBody } from "./kopek-harness.js";

const DAY_MS = 24 * 60 * 60 * 1000;

export function registerRenewalTests(options: KopekContractOptions): void {
  describe("renewals", () => {
    it("charges a Jan 31 monthly subscription on each month end for 13 cycles, exactly once each", async () => {
      const h = await createHarness(options);
      const id = json(await h.call("/v1/subscriptions", subscriptionBody())).id as string;
      const worker = h.worker();
      const charged: string[] = [];
      for (let cycle = 1; cycle <= 12; cycle++) {
        const before = json(await h.get(`/v1/subscriptions/${id}`));
        h.clock.advance(Date.parse(before.nextChargeAt as string) - h.clock.now().getTime());
        expect(await worker.runOnce()).toMatchObject({ charged: 1 });
        expect(await worker.runOnce()).toMatchObject({ claimed: 0 });
        charged.push((json(await h.get(`/v1/subscriptions/${id}`)).lastChargedAt as string).slice(0, 10));
      }
      expect(charged).toEqual([
        "2026-02-28",
        "2026-03-31",
        "2026-04-30",
        "2026-05-31",
        "2026-06-30",
        "2026-07-31",
        "2026-08-31",
        "2026-09-30",
        "2026-10-31",
        "2026-11-30",
        "2026-12-31",
        "2027-01-31",
      ]);
      expect(json(await h.get(`/v1/subscriptions/${id}`))).toMatchObject({
        cyclesStarted: 13,
        nextChargeAt: "2027-02-28T10:00:00.000Z",
      });
      expect(h.provider.chargesMade()).toBe(13);
    });

    it("charges a subscription that fell behind once, then resumes on schedule", async () => {
      const h = await createHarness(options);
      const id = json(await h.call("/v1/subscriptions", subscriptionBody())).id as string;
      h.clock.advance(100 * DAY_MS);
      expect(await h.worker().runOnce()).toMatchObject({ charged: 1 });
      expect(json(await h.get(`/v1/subscriptions/${id}`))).toMatchObject({
        cyclesStarted: 2,
        nextChargeAt: "2026-05-31T10:00:00.000Z",
      });
      expect(h.provider.chargesMade()).toBe(2);
    });

    it("goes past_due on a decline, retries on the dunning schedule, and recovers", async () => {
      const h = await createHarness(options);
      const id = json(await h.call("/v1/subscriptions", subscriptionBody())).id as string;
      const worker = h.worker();
      h.clock.advance(28 * DAY_MS);
      h.injectChargeFaults("decline");
      await worker.runOnce();
      expect(json(await h.get(`/v1/subscriptions/${id}`)).status).toBe("past_due");
      h.clock.advance(DAY_MS - 1);
      expect(await worker.runOnce()).toMatchObject({ claimed: 0 });
      h.clock.advance(1);
      expect(await worker.runOnce()).toMatchObject({ charged: 1 });
      expect(json(await h.get(`/v1/subscriptions/${id}`))).toMatchObject({
        status: "active",
        cyclesStarted: 2,
        nextChargeAt: "2026-03-31T10:00:00.000Z",
      });
    });

    it("cancels with payment_failed after the last retry is declined", async () => {
      const h = await createHarness(options);
      const id = json(await h.call("/v1/subscriptions", subscriptionBody())).id as string;
      const worker = h.worker();
      h.clock.advance(28 * DAY_MS);
      h.injectChargeFaults("decline", "decline", "decline", "decline");
      for (const wait of [0, DAY_MS, 2 * DAY_MS, 2 * DAY_MS]) {
        h.clock.advance(wait);
        expect(await worker.runOnce()).toMatchObject({ declined: 1 });
      }
      expect(json(await h.get(`/v1/subscriptions/${id}`))).toMatchObject({
        status: "canceled",
        cancelReason: "payment_failed",
        canceledAt: "2026-03-05T10:00:00.000Z",
      });
      h.clock.advance(60 * DAY_MS);
      expect(await worker.runOnce()).toMatchObject({ claimed: 0 });
    });

    it("retries an outage soon without counting it as a decline", async () => {
      const h = await createHarness(options);
      const id = json(await h.call("/v1/subscriptions", subscriptionBody())).id as string;
      const worker = h.worker();
      h.clock.advance(28 * DAY_MS);
      h.injectChargeFaults("outage");
      expect(await worker.runOnce()).toMatchObject({ unavailable: 1 });
      expect(json(await h.get(`/v1/subscriptions/${id}`)).status).toBe("active");
      h.clock.advance(5 * 60_000);
      expect(await worker.runOnce()).toMatchObject({ charged: 1 });
      expect(h.provider.chargesMade()).toBe(2);
    });

    it("numbers every attempt as Payments do (1 = the first charge), and sends an unanswered one again with its first key", async () => {
      const h = await createHarness(options);
      const id = json(await h.call("/v1/subscriptions", subscriptionBody())).id as string;
      const keys: string[] = [];
      const charge = h.provider.chargeStoredMethod.bind(h.provider);
      Object.assign(h.provider, {
        chargeStoredMethod: (request: StoredMethodCharge) => {
          keys.push(request.idempotencyKey);
          return charge(request);
        },
      });
      const events: { cycle: number; result: string }[] = [];
      const worker = h.worker({ onRenewal: ({ cycle, result }) => events.push({ cycle, result }) });
      h.clock.advance(28 * DAY_MS);
      // The charge is made, its answer lost: the attempt stays recorded, pending, for cycle 2.
      h.injectChargeFaults("charge-then-outage");
      expect(await worker.runOnce()).toMatchObject({ unavailable: 1 });
      h.clock.advance(5 * 60_000);
      expect(await worker.runOnce()).toMatchObject({ charged: 1 });
      expect(events).toEqual([
        { cycle: 2, result: "unavailable" },
        { cycle: 2, result: "charged" },
      ]);
      const [renewal] = json(await h.get("/v1/payments", { subscriptionId: id })).data as { cycle: number }[];
      expect(renewal?.cycle).toBe(2);
      // The key as every release wrote it (its number is the period, cycle − 1): one charge, never two.
      expect(keys).toEqual([`kopek:renewal:${id}:1:0`, `kopek:renewal:${id}:1:0`]);
      expect(h.provider.chargesMade()).toBe(2);
    });

    it("charges each due subscription exactly once with two workers racing", async () => {
      const h = await createHarness(options);
      for (let i = 0; i < 40; i++) await h.call("/v1/subscriptions", subscriptionBody(`pm_race_${i}`));
      h.clock.advance(28 * DAY_MS);
      const reports = await Promise.all([
        h.worker({ batchSize: 7 }).runOnce(),
        h.worker({ batchSize: 5 }).runOnce(),
      ]);
      expect(reports.reduce((sum, r) => sum + r.charged, 0)).toBe(40);
      expect(h.chargeCalls()).toBe(80);
      expect(h.provider.chargesMade()).toBe(80);
    });

    it("counts a cycle once when a slow worker answers after another took over its lease", async () => {
      const h = await createHarness(options);
      const id = json(await h.call("/v1/subscriptions", subscriptionBody())).id as string;
      h.clock.advance(28 * DAY_MS);
      h.injectChargeFaults("hold");
      const slow = h.worker({ leaseMs: 60_000 }).runOnce();
      while (h.chargeCalls() < 2) await new Promise((resolve) => setTimeout(resolve, 1));
      h.clock.advance(60_000);
      expect(await h.worker().runOnce()).toMatchObject({ charged: 1 });
      h.releaseHeldCharges();
      await slow;
      expect(json(await h.get(`/v1/subscriptions/${id}`))).toMatchObject({
        status: "active",
        cyclesStarted: 2,
      });
      expect(h.provider.chargesMade()).toBe(2);
    });

    it("keeps a subscription canceled while its renewal charge was in flight, and records the charge", async () => {
      const h = await createHarness(options);
      const id = json(await h.call("/v1/subscriptions", subscriptionBody())).id as string;
      h.clock.advance(28 * DAY_MS);
      h.injectChargeFaults("hold");
      const run = h.worker().runOnce();
      while (h.chargeCalls() < 2) await new Promise((resolve) => setTimeout(resolve, 1));
      const canceled = await h.call(`/v1/subscriptions/${id}/cancel`, {});
      expect(json(canceled)).toMatchObject({ status: "canceled", cyclesStarted: 1 });
      h.releaseHeldCharges();
      expect(await run).toMatchObject({ charged: 1 });
      expect(json(await h.get(`/v1/subscriptions/${id}`))).toMatchObject({
        status: "canceled",
        cancelReason: "requested",
        cyclesStarted: 2,
      });
      expect(h.provider.chargesMade()).toBe(2);
    });
  });
}
