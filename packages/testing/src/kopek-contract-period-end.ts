import { describe, expect, it } from "vitest";
import { advanceTo, events } from "./harness-reads.js";
import {
  createHarness,
  json,
  type KopekContractOptions,
  type KopekHarness,
  subscriptionBody,
} from "./kopek-harness.js";

const DAY_MS = 24 * 60 * 60 * 1000;

async function subscribed(h: KopekHarness) {
  const created = json(await h.call("/v1/subscriptions", subscriptionBody()));
  return { id: created.id as string, path: `/v1/subscriptions/${created.id}`, created };
}

const atPeriodEnd = (h: KopekHarness, path: string, key?: string) =>
  h.call(`${path}/cancel`, { at: "period_end" }, key);

/** API.md 11.2: a cancel at the end of the paid period, its undo, and the renewal worker honouring it. */
export function registerPeriodEndTests(options: KopekContractOptions): void {
  describe("cancel at period end", () => {
    it("stays active with cancelAt = nextChargeAt; subscription.updated names what changed", async () => {
      const h = await createHarness(options);
      const { path, created } = await subscribed(h);
      h.clock.advance(DAY_MS);
      const answer = await atPeriodEnd(h, path);
      expect(answer.status).toBe(200);
      const body = json(answer);
      expect(body).toMatchObject({
        status: "active",
        cancelAt: created.nextChargeAt,
        cancelAtPeriodEnd: true,
        canceledAt: null,
        cancelReason: null,
      });
      expect(json(await h.get(path))).toEqual(body);
      const last = (await events(h)).at(-1);
      expect(last?.type).toBe("subscription.updated");
      expect(last?.data).toEqual({ ...body, previous: { cancelAt: null, cancelAtPeriodEnd: false } });
    });

    it("the worker charges nothing at cancelAt and cancels then, with canceledAt = cancelAt", async () => {
      const h = await createHarness(options);
      const { path, created } = await subscribed(h);
      await atPeriodEnd(h, path);
      const worker = h.worker();
      advanceTo(h, created.nextChargeAt, -1);
      expect(await worker.runOnce()).toMatchObject({ claimed: 0 });
      h.clock.advance(1);
      const charges = h.chargeCalls();
      expect(await worker.runOnce()).toMatchObject({ claimed: 1, canceled: 1, charged: 0 });
      expect(h.chargeCalls()).toBe(charges);
      const ended = json(await h.get(path));
      expect(ended).toMatchObject({
        status: "canceled",
        canceledAt: created.nextChargeAt,
        cancelReason: "requested",
        cancelAt: created.nextChargeAt,
        cyclesStarted: 1,
      });
      const last = (await events(h)).at(-1);
      expect(last).toEqual({ type: "subscription.canceled", data: ended });
      h.clock.advance(40 * DAY_MS);
      expect(await worker.runOnce()).toMatchObject({ claimed: 0 });
      expect(h.chargeCalls()).toBe(charges);
    });

    it("a worker that was down at cancelAt cancels later, still at cancelAt, and charges nothing", async () => {
      const h = await createHarness(options);
      const { path, created } = await subscribed(h);
      await atPeriodEnd(h, path);
      const charges = h.chargeCalls();
      h.clock.advance(95 * DAY_MS);
      expect(await h.worker().runOnce()).toMatchObject({ claimed: 1, canceled: 1, charged: 0 });
      expect(h.chargeCalls()).toBe(charges);
      expect(json(await h.get(path))).toMatchObject({ status: "canceled", canceledAt: created.nextChargeAt });
      const payments = json(await h.get("/v1/payments", { subscriptionId: created.id as string }));
      expect((payments.data as unknown[]).length).toBe(1);
    });

    it("undone before cancelAt (POST /v1/subscriptions/{id}): renewed as usual at nextChargeAt", async () => {
      const h = await createHarness(options);
      const { path, created } = await subscribed(h);
      await atPeriodEnd(h, path);
      const undone = await h.call(path, { cancelAtPeriodEnd: false });
      expect(undone.status).toBe(200);
      expect(json(undone)).toMatchObject({ status: "active", cancelAt: null, cancelAtPeriodEnd: false });
      const last = (await events(h)).at(-1);
      expect(last?.type).toBe("subscription.updated");
      expect(last?.data.previous).toEqual({ cancelAt: created.nextChargeAt, cancelAtPeriodEnd: true });
      advanceTo(h, created.nextChargeAt);
      expect(await h.worker().runOnce()).toMatchObject({ charged: 1, canceled: 0 });
      expect(json(await h.get(path))).toMatchObject({ status: "active", cyclesStarted: 2 });
    });

    it("cancelAtPeriodEnd: true asks the same as cancel at: period_end; asking again changes nothing", async () => {
      const h = await createHarness(options);
      const { path, created } = await subscribed(h);
      const first = await h.call(path, { cancelAtPeriodEnd: true });
      expect(json(first)).toMatchObject({ cancelAt: created.nextChargeAt, cancelAtPeriodEnd: true });
      const before = await events(h);
      const again = await atPeriodEnd(h, path);
      expect([again.status, again.body]).toEqual([200, first.body]);
      expect((await h.call(path, { cancelAtPeriodEnd: true })).body).toBe(first.body);
      expect(await events(h)).toEqual(before);
    });

    it("cancel now voids a cancel at period end; a canceled one cannot be changed", async () => {
      const h = await createHarness(options);
      const { path } = await subscribed(h);
      await atPeriodEnd(h, path);
      const now = json(await h.call(`${path}/cancel`, undefined));
      expect(now).toMatchObject({ status: "canceled", cancelAt: null, cancelAtPeriodEnd: false });
      for (const [route, body] of [
        [`${path}/cancel`, { at: "period_end" }],
        [path, { cancelAtPeriodEnd: false }],
        [path, { cancelAtPeriodEnd: true }],
      ] as const) {
        const refused = await h.call(route, body);
        expect([refused.status, json(refused).code]).toEqual([409, "invalid_state"]);
      }
    });

    it("409 invalid_state for a past-due one, during its renewal, and for an undo after cancelAt", async () => {
      const h = await createHarness(options);
      const due = await subscribed(h);
      const late = await subscribed(h);
      await atPeriodEnd(h, late.path);
      advanceTo(h, due.created.nextChargeAt);
      // The renewal due now has not run: the period is over and its charge is under way.
      const underWay = await atPeriodEnd(h, due.path);
      expect([underWay.status, json(underWay).code]).toEqual([409, "invalid_state"]);
      const undo = await h.call(late.path, { cancelAtPeriodEnd: false });
      expect([undo.status, json(undo).code]).toEqual([409, "invalid_state"]);
      h.injectChargeFaults("decline");
      expect(await h.worker().runOnce()).toMatchObject({ declined: 1, canceled: 1 });
      expect(json(await h.get(due.path)).status).toBe("past_due");
      const pastDue = await atPeriodEnd(h, due.path);
      expect([pastDue.status, json(pastDue).code]).toEqual([409, "invalid_state"]);
      expect(json(pastDue).detail).toMatch(/past due/);
    });

    it("422 for an unknown `at`, an unknown field, and a change that names nothing", async () => {
      const h = await createHarness(options);
      const { path } = await subscribed(h);
      for (const [route, body] of [
        [`${path}/cancel`, { at: "later" }],
        [`${path}/cancel`, { at: "period_end", reason: "x" }],
        [path, {}],
        [path, { cancelAtPeriodEnd: "yes" }],
        [path, { status: "canceled" }],
      ] as const) {
        const refused = await h.call(route, body);
        expect([refused.status, json(refused).code]).toEqual([422, "validation_failed"]);
      }
      expect(json(await h.get(path))).toMatchObject({ status: "active", cancelAt: null });
    });
  });
}
