import { describe, expect, it } from "vitest";
import { advanceTo, events, monthAfter } from "./harness-reads.js";
import { list, unaccountedCharges } from "./kopek-contract-no-lost-charge.js";
import {
  createHarness,
  json,
  type KopekContractOptions,
  type KopekHarness,
  subscriptionBody,
} from "./kopek-harness.js";

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;

async function subscribed(h: KopekHarness) {
  const created = json(await h.call("/v1/subscriptions", subscriptionBody()));
  return { created, path: `/v1/subscriptions/${created.id}` };
}

/** A subscription paused by the worker at the end of its first period. */
async function paused(h: KopekHarness) {
  const { created, path } = await subscribed(h);
  expect((await h.call(`${path}/pause`, {})).status).toBe(200);
  advanceTo(h, created.nextChargeAt);
  expect(await h.worker().runOnce()).toMatchObject({ claimed: 1, paused: 1, charged: 0 });
  return { created, path };
}

/** API.md 11.4: a pause at the end of the paid period, its undo, and a resume that charges at once. */
export function registerPauseTests(options: KopekContractOptions): void {
  describe("pause and resume", () => {
    it("pauses at the end of the paid period: active with pauseAt until then, paused and uncharged after", async () => {
      const h = await createHarness(options);
      const { created, path } = await subscribed(h);
      const asked = json(await h.call(`${path}/pause`, {}));
      expect(asked).toMatchObject({ status: "active", pauseAt: created.nextChargeAt });
      expect((await events(h)).at(-1)).toEqual({
        type: "subscription.updated",
        data: { ...asked, previous: { pauseAt: null } },
      });
      const worker = h.worker();
      advanceTo(h, created.nextChargeAt);
      expect(await worker.runOnce()).toMatchObject({ claimed: 1, paused: 1, charged: 0 });
      const now = json(await h.get(path));
      expect(now).toMatchObject({ status: "paused", pauseAt: created.nextChargeAt, cyclesStarted: 1 });
      expect((await events(h)).at(-1)).toEqual({ type: "subscription.paused", data: now });
      h.clock.advance(90 * DAY_MS);
      expect(await worker.runOnce()).toMatchObject({ claimed: 0 });
      expect(h.chargeCalls()).toBe(1);
    });

    it("a resume before pauseAt only clears it; the renewal then charges as usual", async () => {
      const h = await createHarness(options);
      const { created, path } = await subscribed(h);
      await h.call(`${path}/pause`, {});
      const resumed = json(await h.call(`${path}/resume`, {}));
      expect(resumed).toMatchObject({ status: "active", pauseAt: null, cyclesStarted: 1 });
      expect((await events(h)).at(-1)?.type).toBe("subscription.updated");
      advanceTo(h, created.nextChargeAt);
      expect(await h.worker().runOnce()).toMatchObject({ charged: 1, paused: 0 });
    });

    it("resuming a paused one charges a new cycle at once and re-anchors the schedule at that moment", async () => {
      const h = await createHarness(options);
      const { path } = await paused(h);
      h.clock.advance(10 * DAY_MS);
      const now = h.clock.now();
      const answer = await h.call(`${path}/resume`, {});
      expect(answer.status).toBe(200);
      const body = json(answer);
      expect(body).toMatchObject({
        status: "active",
        pauseAt: null,
        cyclesStarted: 2,
        lastChargedAt: now.toISOString(),
        nextChargeAt: monthAfter(now.toISOString()),
      });
      expect((await events(h)).at(-1)).toEqual({ type: "subscription.resumed", data: body });
      const [charge] = await list(h, "/v1/payments");
      expect(charge).toMatchObject({ kind: "cycle", cycle: 2, status: "succeeded" });
      // The next renewal is a month after the resume, once.
      const worker = h.worker();
      advanceTo(h, body.nextChargeAt, -1);
      expect(await worker.runOnce()).toMatchObject({ claimed: 0 });
      h.clock.advance(1);
      expect(await worker.runOnce()).toMatchObject({ charged: 1 });
      expect(json(await h.get(path)).cyclesStarted).toBe(3);
      expect(h.provider.chargesMade()).toBe(3);
      expect(await unaccountedCharges(h)).toEqual([]);
    });

    it("a declined resume is 402 and stays paused; the next resume is a new charge, not the remembered decline", async () => {
      const h = await createHarness(options);
      const { path } = await paused(h);
      const before = json(await h.get(path));
      h.injectChargeFaults("decline");
      const declined = await h.call(`${path}/resume`, {});
      expect(declined.status).toBe(402);
      expect(json(await h.get(path))).toMatchObject({ ...before, status: "paused" });
      const again = await h.call(`${path}/resume`, {});
      expect(again.status).toBe(200);
      expect(json(again)).toMatchObject({ status: "active", cyclesStarted: 2 });
      expect(h.provider.chargesMade()).toBe(2);
      const statuses = (await list(h, "/v1/payments")).map((p) => [p.cycle, p.status]);
      expect(statuses).toEqual([
        [2, "succeeded"],
        [2, "canceled"],
        [1, "succeeded"],
      ]);
    });

    it("a resume whose answer is lost: 503, then the retry with its key charges once", async () => {
      const h = await createHarness(options);
      const { path } = await paused(h);
      h.injectChargeFaults("charge-then-outage");
      const key = crypto.randomUUID();
      expect((await h.call(`${path}/resume`, {}, key)).status).toBe(503);
      const retried = await h.call(`${path}/resume`, {}, key);
      expect(retried.status).toBe(200);
      expect(json(retried)).toMatchObject({ status: "active", cyclesStarted: 2 });
      expect(h.provider.chargesMade()).toBe(2);
      expect(await unaccountedCharges(h)).toEqual([]);
    });

    it("a resume whose answer is lost and never retried: the renewal worker sends the same key and settles it", async () => {
      const h = await createHarness(options);
      const { path } = await paused(h);
      h.injectChargeFaults("charge-then-outage");
      expect((await h.call(`${path}/resume`, {})).status).toBe(503);
      h.clock.advance(10 * MINUTE_MS);
      expect(await h.worker().runOnce()).toMatchObject({ claimed: 1, charged: 1 });
      expect(json(await h.get(path))).toMatchObject({ status: "active", cyclesStarted: 2 });
      expect(h.provider.chargesMade()).toBe(2);
      expect(await unaccountedCharges(h)).toEqual([]);
    });

    it("pausing again after a resume never charges a period twice", async () => {
      const h = await createHarness(options);
      const { path } = await paused(h);
      await h.call(`${path}/resume`, {});
      await h.call(`${path}/pause`, {});
      advanceTo(h, json(await h.get(path)).nextChargeAt);
      expect(await h.worker().runOnce()).toMatchObject({ paused: 1 });
      h.clock.advance(5 * DAY_MS);
      expect((await h.call(`${path}/resume`, {})).status).toBe(200);
      const cycles = (await list(h, "/v1/payments")).map((p) => p.cycle);
      expect(cycles).toEqual([3, 2, 1]);
      expect(h.provider.chargesMade()).toBe(3);
    });

    it("refuses what cannot pause or resume, and a paused one can still be canceled now", async () => {
      const h = await createHarness(options);
      const { path } = await subscribed(h);
      expect((await h.call(`${path}/resume`, {})).status).toBe(409);
      await h.call(`${path}/cancel`, { at: "period_end" });
      expect((await h.call(`${path}/pause`, {})).status).toBe(409);
      await h.call(path, { cancelAtPeriodEnd: false });
      await h.call(`${path}/pause`, {});
      expect((await h.call(`${path}/cancel`, { at: "period_end" })).status).toBe(409);
      const trialEnd = new Date(h.clock.now().getTime() + 7 * DAY_MS).toISOString();
      const trial = json(await h.call("/v1/subscriptions", { ...subscriptionBody(), trialEnd }));
      expect((await h.call(`/v1/subscriptions/${trial.id}/pause`, {})).status).toBe(409);
      expect((await h.call(`${path}/pause`, { at: "now" })).status).toBe(422);

      const h2 = await createHarness(options);
      const second = await paused(h2);
      const canceled = json(await h2.call(`${second.path}/cancel`, {}));
      expect(canceled).toMatchObject({ status: "canceled", pauseAt: null, cancelReason: "requested" });
      expect((await h2.call(`${second.path}/resume`, {})).status).toBe(409);
    });
  });
}
