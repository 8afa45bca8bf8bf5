import { describe, expect, it } from "vitest";
import { advanceTo, events } from "./harness-reads.js";
import { list, restartedReconciler, unaccountedCharges } from "./kopek-contract-no-lost-charge.js";
import {
  createHarness,
  json,
  type KopekContractOptions,
  type KopekHarness,
  subscriptionBody,
} from "./kopek-harness.js";

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;
const RUB = (amount: string) => ({ amount, currency: "RUB" });

/** A one-item receipt for `amount` (minor units of RUB). */
const receiptFor = (amount: string) => ({
  customer: { email: "buyer@example.com" },
  taxSystemCode: 1,
  items: [
    {
      description: "Pro plan",
      quantity: "1",
      amount: RUB(amount),
      vatCode: 1,
      paymentSubject: "service",
      paymentMode: "full_payment",
    },
  ],
});

async function subscribed(h: KopekHarness, more: Record<string, unknown> = {}) {
  const created = json(await h.call("/v1/subscriptions", { ...subscriptionBody(), ...more }));
  return { created, path: `/v1/subscriptions/${created.id}` };
}

/** API.md's formula, written apart from Kopek's: whole seconds, rounded down. */
function expectedProration(raise: bigint, start: string, end: string, now: Date): string {
  const length = BigInt(Math.floor((Date.parse(end) - Date.parse(start)) / 1000));
  const remaining = BigInt(Math.floor((Date.parse(end) - now.getTime()) / 1000));
  return ((raise * remaining) / length).toString();
}

/** API.md 11.3: changing a subscription's amount, period, texts and receipt, with and without proration. */
export function registerChangeTests(options: KopekContractOptions): void {
  describe("changing a subscription", () => {
    it("a new amount applies from the next cycle: nextChargeAt stays, the renewal charges it", async () => {
      const h = await createHarness(options);
      const { created, path } = await subscribed(h);
      h.clock.advance(3 * DAY_MS);
      const answer = await h.call(path, { amount: RUB("199900"), description: "Pro, new price" });
      expect(answer.status).toBe(200);
      const body = json(answer);
      expect(body).toMatchObject({
        amount: RUB("199900"),
        description: "Pro, new price",
        nextChargeAt: created.nextChargeAt,
        cyclesStarted: 1,
      });
      expect(json(await h.get(path))).toEqual(body);
      expect((await events(h)).at(-1)).toEqual({
        type: "subscription.updated",
        data: { ...body, previous: { amount: RUB("149900"), description: created.description } },
      });
      expect(h.chargeCalls()).toBe(1);
      advanceTo(h, created.nextChargeAt);
      expect(await h.worker().runOnce()).toMatchObject({ charged: 1 });
      const cycles = (await list(h, "/v1/payments")).map((p) => [p.cycle, p.kind, p.amount]);
      expect(cycles).toEqual([
        [2, "cycle", RUB("199900")],
        [1, "cycle", RUB("149900")],
      ]);
    });

    it("a new period re-anchors at nextChargeAt: that charge stays, the next comes a new period later", async () => {
      const h = await createHarness(options);
      const { created, path } = await subscribed(h);
      const answer = json(await h.call(path, { period: { unit: "week", count: 2 } }));
      expect(answer).toMatchObject({
        period: { unit: "week", count: 2 },
        nextChargeAt: created.nextChargeAt,
      });
      advanceTo(h, created.nextChargeAt);
      await h.worker().runOnce();
      const renewed = json(await h.get(path));
      expect(renewed.cyclesStarted).toBe(2);
      expect(renewed.nextChargeAt).toBe(
        new Date(Date.parse(String(created.nextChargeAt)) + 14 * DAY_MS).toISOString(),
      );
    });

    it("charge_now charges the prorated difference at once, as a Payment of kind proration", async () => {
      const h = await createHarness(options);
      const { created, path } = await subscribed(h);
      h.clock.advance(11 * DAY_MS + 1234);
      const now = h.clock.now();
      const answer = await h.call(path, { amount: RUB("299900"), proration: "charge_now" });
      expect(answer.status).toBe(200);
      expect(json(answer)).toMatchObject({ amount: RUB("299900"), nextChargeAt: created.nextChargeAt });
      const prorated = expectedProration(
        150000n,
        String(created.startedAt),
        String(created.nextChargeAt),
        now,
      );
      expect(BigInt(prorated) > 0n && BigInt(prorated) < 150000n).toBe(true);
      const [newest] = await list(h, "/v1/payments");
      expect(newest).toMatchObject({
        kind: "proration",
        status: "succeeded",
        subscriptionId: created.id,
        cycle: 1,
        amount: RUB(prorated),
      });
      expect(h.provider.chargesMade()).toBe(2);
      expect(await unaccountedCharges(h)).toEqual([]);
      // The renewal that follows charges the new amount for cycle 2, and the proration never again.
      advanceTo(h, created.nextChargeAt);
      await h.worker().runOnce();
      expect(h.provider.chargesMade()).toBe(3);
      expect((await list(h, "/v1/payments", { subscriptionId: String(created.id) })).length).toBe(3);
    });

    it("charge_now declined: 402, nothing changed, the declined proration Payment kept", async () => {
      const h = await createHarness(options);
      const { path } = await subscribed(h);
      const before = json(await h.get(path));
      const eventsBefore = (await events(h)).length;
      h.injectChargeFaults("decline");
      const answer = await h.call(path, { amount: RUB("299900"), proration: "charge_now" });
      expect(answer.status).toBe(402);
      expect(json(answer).code).toBe("payment_declined");
      expect(json(await h.get(path))).toEqual(before);
      expect((await events(h)).length).toBe(eventsBefore);
      expect((await list(h, "/v1/payments"))[0]).toMatchObject({ kind: "proration", status: "canceled" });
    });

    it("charge_now with a lower or equal amount charges nothing; the new amount applies next cycle", async () => {
      const h = await createHarness(options);
      const { path } = await subscribed(h);
      const answer = await h.call(path, { amount: RUB("99900"), proration: "charge_now" });
      expect(answer.status).toBe(200);
      expect(json(answer).amount).toEqual(RUB("99900"));
      expect(h.chargeCalls()).toBe(1);
    });

    it("a lost proration answer: 503, the retry with its key charges nothing twice and applies the change", async () => {
      const h = await createHarness(options);
      const { path } = await subscribed(h);
      h.injectChargeFaults("charge-then-outage");
      const key = crypto.randomUUID();
      const body = { amount: RUB("299900"), proration: "charge_now" };
      expect((await h.call(path, body, key)).status).toBe(503);
      expect(json(await h.get(path)).amount).toEqual(RUB("149900"));
      const retried = await h.call(path, body, key);
      expect(retried.status).toBe(200);
      expect(json(retried).amount).toEqual(RUB("299900"));
      expect(h.provider.chargesMade()).toBe(2);
      expect(await unaccountedCharges(h)).toEqual([]);
    });

    it("a proration never retried: reconciliation refunds the money that moved for a change never made", async () => {
      const h = await createHarness(options);
      const { path } = await subscribed(h);
      h.injectChargeFaults("charge-then-outage");
      expect((await h.call(path, { amount: RUB("299900"), proration: "charge_now" })).status).toBe(503);
      h.clock.advance(2 * MINUTE_MS);
      await restartedReconciler(h).runOnce();
      const [proration] = await list(h, "/v1/payments");
      expect(proration).toMatchObject({ kind: "proration", status: "succeeded" });
      expect(proration?.amountRefunded).toEqual(proration?.amount);
      expect(json(await h.get(path)).amount).toEqual(RUB("149900"));
      expect(await unaccountedCharges(h)).toEqual([]);
    });

    it("a receipt follows the amount: refused without a new one that adds up; the proration gets a one-item receipt", async () => {
      const h = await createHarness(options);
      const { path } = await subscribed(h, { receipt: receiptFor("149900") });
      const refused = await h.call(path, { amount: RUB("299900") });
      expect(refused.status).toBe(422);
      expect(json(refused).errors).toEqual([expect.objectContaining({ code: "receipt_total_mismatch" })]);
      const short = await h.call(path, { amount: RUB("299900"), receipt: receiptFor("299800") });
      expect(json(short).errors).toEqual([expect.objectContaining({ code: "receipt_total_mismatch" })]);
      h.clock.advance(10 * DAY_MS);
      const changed = await h.call(path, {
        amount: RUB("299900"),
        receipt: receiptFor("299900"),
        proration: "charge_now",
      });
      expect(changed.status).toBe(200);
      const [proration] = await list(h, "/v1/payments");
      const sent = h.provider.chargeReceipts().at(-1);
      expect(sent?.items).toEqual([
        expect.objectContaining({ description: "Pro plan", quantity: "1", amount: proration?.amount }),
      ]);
      expect(sent?.customer.email).toBe("buyer@example.com");
    });

    it("refuses what cannot change: another currency (422), a canceled or due subscription (409)", async () => {
      const h = await createHarness(options);
      const { created, path } = await subscribed(h);
      const otherCurrency = await h.call(path, { amount: { amount: "1999", currency: "USD" } });
      expect(otherCurrency.status).toBe(422);
      advanceTo(h, created.nextChargeAt);
      const due = await h.call(path, { amount: RUB("199900") });
      expect(due.status).toBe(409);
      expect(json(due).code).toBe("invalid_state");
      // Texts may still change while the renewal is due.
      expect((await h.call(path, { description: "Renamed" })).status).toBe(200);
      await h.call(`${path}/cancel`, {});
      expect((await h.call(path, { metadata: { a: "b" } })).status).toBe(409);
    });

    it("refuses a price change of a trialing subscription, and charge_now with a new period or without an amount", async () => {
      const h = await createHarness(options);
      const trialEnd = new Date(h.clock.now().getTime() + 7 * DAY_MS).toISOString();
      const { path } = await subscribed(h, { trialEnd });
      expect((await h.call(path, { amount: RUB("199900") })).status).toBe(409);
      const mixed = await h.call(path, {
        amount: RUB("199900"),
        period: { unit: "year", count: 1 },
        proration: "charge_now",
      });
      expect(mixed.status).toBe(422);
      expect(json(mixed).errors).toEqual([expect.objectContaining({ pointer: "#/proration" })]);
      const bare = await h.call(path, { proration: "charge_now" });
      expect(json(bare).errors).toEqual([expect.objectContaining({ pointer: "#/amount", code: "required" })]);
    });
  });
}
