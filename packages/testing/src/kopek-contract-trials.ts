import { describe, expect, it } from "vitest";
import { advanceTo, monthAfter } from "./harness-reads.js";
import {
  createHarness,
  json,
  type KopekContractOptions,
  type KopekHarness,
  subscriptionBody,
} from "./kopek-harness.js";

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;

async function types(h: KopekHarness) {
  const stored = (await h.storage.listEventDeliveries(h.project.id))._unsafeUnwrap();
  return stored.map(({ event }) => event.type);
}

/** A subscription with a trial ending `ms` from the harness's now. */
async function trial(h: KopekHarness, ms: number) {
  const trialEnd = new Date(h.clock.now().getTime() + ms).toISOString();
  const created = await h.call("/v1/subscriptions", { ...subscriptionBody(), trialEnd });
  const body = json(created);
  return { created, body, path: `/v1/subscriptions/${body.id}`, trialEnd };
}

/** API.md 11.6: a trial, its notice, and its first charge at trialEnd through the renewal worker. */
export function registerTrialTests(options: KopekContractOptions): void {
  describe("trials", () => {
    it("creates a trialing subscription, method described, nothing charged, first charge due at trialEnd", async () => {
      const h = await createHarness(options);
      const charges = h.chargeCalls();
      const { created, body, trialEnd } = await trial(h, 14 * DAY_MS);
      expect(created.status).toBe(201);
      expect(body).toMatchObject({
        status: "trialing",
        trialEnd,
        nextChargeAt: trialEnd,
        cyclesStarted: 0,
        lastChargedAt: null,
        startedAt: h.clock.now().toISOString(),
      });
      expect(body.methodMask).toMatch(/^\d{4} \d{2}\*\* \*{4} \d{4}$/);
      expect(h.chargeCalls()).toBe(charges);
      const payments = json(await h.get("/v1/payments", { subscriptionId: String(body.id) }));
      expect(payments.data).toEqual([]);
      expect(await types(h)).toEqual(["subscription.created"]);
    });

    it("subscription.trial_will_end 3 days before trialEnd, once; the first charge at trialEnd, once", async () => {
      const h = await createHarness(options);
      const { body, path, trialEnd } = await trial(h, 10 * DAY_MS);
      const worker = h.worker();
      advanceTo(h, trialEnd, -3 * DAY_MS - 1);
      expect(await worker.runOnce()).toMatchObject({ claimed: 0 });
      h.clock.advance(1);
      expect(await worker.runOnce()).toMatchObject({ claimed: 1, notified: 1, charged: 0 });
      expect(await worker.runOnce()).toMatchObject({ claimed: 0 });
      expect(await types(h)).toEqual(["subscription.created", "subscription.trial_will_end"]);
      advanceTo(h, trialEnd, -1);
      expect(await worker.runOnce()).toMatchObject({ claimed: 0 });
      h.clock.advance(1);
      const charges = h.chargeCalls();
      expect(await worker.runOnce()).toMatchObject({ claimed: 1, charged: 1 });
      expect(h.chargeCalls()).toBe(charges + 1);
      const active = json(await h.get(path));
      expect(active).toMatchObject({
        status: "active",
        cyclesStarted: 1,
        lastChargedAt: trialEnd,
        nextChargeAt: monthAfter(trialEnd),
        trialEnd,
      });
      const payments = json(await h.get("/v1/payments", { subscriptionId: String(body.id) }));
      expect(payments.data).toMatchObject([{ status: "succeeded", cycle: 1 }]);
      expect((await types(h)).at(-1)).toBe("subscription.activated");
      expect(await worker.runOnce()).toMatchObject({ claimed: 0 });
    });

    it("a trial shorter than 3 days is told at once; a worker down at trialEnd charges cycle 1 once, anchored at trialEnd", async () => {
      const h = await createHarness(options);
      const { body, path, trialEnd } = await trial(h, 2 * DAY_MS);
      expect(await types(h)).toEqual(["subscription.created", "subscription.trial_will_end"]);
      const worker = h.worker();
      expect(await worker.runOnce()).toMatchObject({ claimed: 0 });
      // Down for 75 days: one charge, for the first cycle; the missed periods are not charged.
      advanceTo(h, trialEnd, 75 * DAY_MS);
      const charges = h.chargeCalls();
      expect(await worker.runOnce()).toMatchObject({ claimed: 1, charged: 1 });
      expect(h.chargeCalls()).toBe(charges + 1);
      const payments = json(await h.get("/v1/payments", { subscriptionId: String(body.id) }));
      expect(payments.data).toMatchObject([{ status: "succeeded", cycle: 1 }]);
      const nextChargeAt = Date.parse(String(json(await h.get(path)).nextChargeAt));
      expect(nextChargeAt).toBeGreaterThan(h.clock.now().getTime());
      expect(new Date(nextChargeAt).getUTCDate()).toBe(new Date(trialEnd).getUTCDate());
    });

    it("a declined first charge makes it past_due, with dunning as usual", async () => {
      const h = await createHarness(options);
      const { path, trialEnd } = await trial(h, 2 * DAY_MS);
      advanceTo(h, trialEnd);
      h.injectChargeFaults("decline");
      expect(await h.worker().runOnce()).toMatchObject({ declined: 1 });
      expect(json(await h.get(path))).toMatchObject({ status: "past_due", cyclesStarted: 0 });
      expect((await types(h)).at(-1)).toBe("subscription.past_due");
      h.clock.advance(DAY_MS);
      expect(await h.worker().runOnce()).toMatchObject({ charged: 1 });
      expect(json(await h.get(path))).toMatchObject({ status: "active", cyclesStarted: 1 });
    });

    it("canceled during the trial, now or at its end: never charged", async () => {
      const h = await createHarness(options);
      const now = await trial(h, 5 * DAY_MS);
      const atEnd = await trial(h, 5 * DAY_MS);
      expect(json(await h.call(`${now.path}/cancel`, undefined))).toMatchObject({ status: "canceled" });
      const scheduled = json(await h.call(`${atEnd.path}/cancel`, { at: "period_end" }));
      expect(scheduled).toMatchObject({ status: "trialing", cancelAt: atEnd.trialEnd });
      const charges = h.chargeCalls();
      advanceTo(h, atEnd.trialEnd, 40 * DAY_MS);
      const worker = h.worker();
      await worker.runOnce();
      await worker.runOnce();
      expect(h.chargeCalls()).toBe(charges);
      expect(json(await h.get(atEnd.path))).toMatchObject({
        status: "canceled",
        canceledAt: atEnd.trialEnd,
        cyclesStarted: 0,
      });
    });

    it("422 for a trialEnd under an hour or over 365 days ahead, not a timestamp, or with invoiceId", async () => {
      const h = await createHarness(options);
      const at = (ms: number) => new Date(h.clock.now().getTime() + ms).toISOString();
      for (const [extra, pointer, code] of [
        [{ trialEnd: at(HOUR_MS - 1000) }, "#/trialEnd", "too_small"],
        [{ trialEnd: at(366 * DAY_MS) }, "#/trialEnd", "too_large"],
        [{ trialEnd: "tomorrow" }, "#/trialEnd", "invalid_format"],
      ] as const) {
        const refused = await h.call("/v1/subscriptions", { ...subscriptionBody(), ...extra });
        expect([refused.status, json(refused).code]).toEqual([422, "validation_failed"]);
        expect(json(refused).errors).toContainEqual(expect.objectContaining({ pointer, code }));
      }
      const fromInvoice = await h.call("/v1/subscriptions", {
        amount: { amount: "149900", currency: "RUB" },
        period: { unit: "month", count: 1 },
        invoiceId: crypto.randomUUID(),
        trialEnd: at(DAY_MS),
      });
      expect(json(fromInvoice).errors).toContainEqual(
        expect.objectContaining({ pointer: "#/trialEnd", code: "mutually_exclusive" }),
      );
      expect(json(await h.get("/v1/subscriptions")).data).toEqual([]);
    });
  });
}
