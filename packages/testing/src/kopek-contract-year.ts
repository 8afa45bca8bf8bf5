import { describe, expect, it } from "vitest";
import { advanceTo, events } from "./harness-reads.js";
import { createHarness, json, type KopekContractOptions, subscriptionBody } from "./kopek-harness.js";

type Json = Record<string, unknown>;

/**
 * The issue 41 scenario on the test clock (API.md 11.2–11.5): a monthly subscription created Jan 31,
 * raised mid-February with proration, paused from March, resumed in May, its card replaced while past
 * due, canceled at period end — every charge, amount and date as §11 says, each exactly once.
 */
export function registerYearTests(options: KopekContractOptions): void {
  describe("a subscription's year (API.md 11)", () => {
    it("Jan 31 → raise with proration → pause → resume → new card while past due → cancel at period end", async () => {
      const h = await createHarness(options);
      const at = (iso: string) => advanceTo(h, iso);
      const path = (suffix = "") => `/v1/subscriptions/${id}${suffix}`;

      // Jan 31 10:00: 1,499.00 RUB a month, charged at once; next on Feb 28 (the month has no 31st).
      expect(h.clock.now().toISOString()).toBe("2026-01-31T10:00:00.000Z");
      const created = json(await h.call("/v1/subscriptions", subscriptionBody()));
      const id = String(created.id);
      expect(created).toMatchObject({ status: "active", nextChargeAt: "2026-02-28T10:00:00.000Z" });

      // Feb 14 10:00: 2,999.00 from the next cycle; half the cycle remains (14 of 28 days): 750.00 now.
      at("2026-02-14T10:00:00.000Z");
      const raised = json(
        await h.call(path(), { amount: { amount: "299900", currency: "RUB" }, proration: "charge_now" }),
      );
      expect(raised).toMatchObject({
        amount: { amount: "299900" },
        nextChargeAt: "2026-02-28T10:00:00.000Z",
      });

      // Feb 28: renewed at the new price; next on Mar 31 (the anchor's day again).
      at("2026-02-28T10:00:00.000Z");
      expect(await h.worker().runOnce()).toMatchObject({ charged: 1 });
      expect(json(await h.get(path()))).toMatchObject({
        nextChargeAt: "2026-03-31T10:00:00.000Z",
        cyclesStarted: 2,
      });

      // Mar 1: a pause from the end of the paid period; Mar 31: paused, nothing charged.
      at("2026-03-01T10:00:00.000Z");
      expect(json(await h.call(path("/pause"), {}))).toMatchObject({ pauseAt: "2026-03-31T10:00:00.000Z" });
      at("2026-03-31T10:00:00.000Z");
      expect(await h.worker().runOnce()).toMatchObject({ paused: 1, charged: 0 });

      // May 15: resumed, charged at once, re-anchored: next on Jun 15.
      at("2026-05-15T10:00:00.000Z");
      expect(await h.worker().runOnce()).toMatchObject({ claimed: 0 });
      const resumed = json(await h.call(path("/resume"), {}));
      expect(resumed).toMatchObject({
        status: "active",
        cyclesStarted: 3,
        nextChargeAt: "2026-06-15T10:00:00.000Z",
      });

      // Jun 15: the card is declined: past due.
      at("2026-06-15T10:00:00.000Z");
      h.injectChargeFaults("decline");
      expect(await h.worker().runOnce()).toMatchObject({ declined: 1 });
      expect(json(await h.get(path()))).toMatchObject({ status: "past_due" });

      // Jun 15 18:00: the payer saves a new card (a 1.00 check, refunded); the overdue cycle is charged from it at once.
      h.clock.advance(8 * 3600_000);
      const link = json(await h.call(path("/method-update"), {}));
      const address = {
        projectId: h.project.id,
        subscriptionId: id,
        updateId: String(link.url).split("/").at(-1) ?? "",
      };
      const started = (await h.kopek.methodUpdates.start({ ...address, method: "card" }))._unsafeUnwrap();
      if (started.kind !== "confirm") throw new Error("the link was not open");
      h.provider.confirm(started.payment.providerPaymentId ?? "", "succeed");
      const back = (
        await h.kopek.methodUpdates.check({ ...address, paymentId: started.payment.id })
      )._unsafeUnwrap();
      expect(back.page.state).toBe("completed");
      // The worker's next tick, a few seconds on.
      h.clock.advance(5000);
      expect(await h.worker().runOnce()).toMatchObject({ charged: 1 });
      const recovered = json(await h.get(path()));
      expect(recovered).toMatchObject({
        status: "active",
        cyclesStarted: 4,
        nextChargeAt: "2026-07-15T10:00:00.000Z",
      });
      expect(recovered.methodMask).not.toBe(created.methodMask);

      // Jun 20: canceled at the end of the paid period; Jul 15: canceled, nothing charged.
      at("2026-06-20T10:00:00.000Z");
      expect(json(await h.call(path("/cancel"), { at: "period_end" }))).toMatchObject({
        cancelAt: "2026-07-15T10:00:00.000Z",
      });
      at("2026-07-15T10:00:00.000Z");
      expect(await h.worker().runOnce()).toMatchObject({ canceled: 1, charged: 0 });
      at("2026-12-31T10:00:00.000Z");
      expect(await h.worker().runOnce()).toMatchObject({ claimed: 0 });

      // Every payment, in order: what it was for, how much, when, and how it ended.
      const payments = (json(await h.get("/v1/payments", { subscriptionId: id, limit: "20" })).data as Json[])
        .slice()
        .reverse()
        .map((p) => [p.kind, p.cycle, (p.amount as Json).amount, p.status, String(p.createdAt).slice(0, 10)]);
      expect(payments).toEqual([
        ["cycle", 1, "149900", "succeeded", "2026-01-31"],
        ["proration", 1, "75000", "succeeded", "2026-02-14"],
        ["cycle", 2, "299900", "succeeded", "2026-02-28"],
        ["cycle", 3, "299900", "succeeded", "2026-05-15"],
        ["cycle", 4, "299900", "canceled", "2026-06-15"],
        ["verification", 4, "100", "succeeded", "2026-06-15"],
        ["cycle", 4, "299900", "succeeded", "2026-06-15"],
      ]);
      const refunds = json(await h.get("/v1/refunds", { limit: "20" })).data as Json[];
      expect(refunds.map((r) => [(r.amount as Json).amount, r.status])).toEqual([["100", "succeeded"]]);
      const final = json(await h.get(path()));
      expect(final).toMatchObject({ status: "canceled", cancelReason: "requested", cyclesStarted: 4 });
      expect((await events(h)).map((e) => e.type).filter((t) => t.startsWith("subscription."))).toEqual([
        "subscription.created",
        "subscription.updated",
        "subscription.renewed",
        "subscription.updated",
        "subscription.paused",
        "subscription.resumed",
        "subscription.past_due",
        "subscription.method_updated",
        "subscription.renewed",
        "subscription.updated",
        "subscription.canceled",
      ]);
    });
  });
}
