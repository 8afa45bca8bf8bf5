import { describe, expect, it } from "vitest";
import { sampleSubscription } from "./fixtures.js";
import { events, reconcilerOf } from "./harness-reads.js";
import { registerMethodSaveTests } from "./kopek-contract-method-saves.js";
import {
  createHarness,
  json,
  type KopekContractOptions,
  type KopekHarness,
  subscriptionBody,
} from "./kopek-harness.js";
import { completionOf, newClaim } from "./storage-contract-support.js";

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;

/** A subscription with a method-update link, and the address of its page. */
async function withLink(h: KopekHarness) {
  const created = json(await h.call("/v1/subscriptions", subscriptionBody()));
  const link = json(await h.call(`/v1/subscriptions/${created.id}/method-update`, {}));
  const updateId = String(link.url).split("/").at(-1) ?? "";
  return { created, at: { projectId: h.project.id, subscriptionId: String(created.id), updateId } };
}

const typesOf = async (h: KopekHarness) => (await events(h)).map((e) => e.type);
const checksOf = async (h: KopekHarness, subscriptionId: string) =>
  (json(await h.get("/v1/payments", { subscriptionId })).data as Record<string, unknown>[]).filter(
    (p) => p.kind === "verification",
  );

/**
 * API.md 11.5 where answers go missing: a check whose answer was lost, a word that comes twice, a refund
 * with no answer, a subscription canceled while the payer was at the provider. Never a method lost,
 * never a check kept, never an event twice.
 */
export function registerMethodUpdateTests(options: KopekContractOptions): void {
  describe("a payer's new method (API.md 11.5)", () => {
    it("a check whose answer was lost is found by its key, and put on and refunded once the payer confirmed it", async () => {
      const h = await createHarness(options);
      const { created, at } = await withLink(h);
      h.loseNextCreatePayment();
      const started = await h.kopek.methodUpdates.start({ ...at, method: "card" });
      expect(started._unsafeUnwrapErr().code).toBe("provider_unavailable");
      const [check] = await checksOf(h, at.subscriptionId);
      expect(check).toMatchObject({ status: "pending", amount: { amount: "100" } });
      // The payer got to the provider anyway and confirmed; the reconciler asks by the check's key.
      const providerPaymentId = h.provider.paymentIds().at(-1) ?? "";
      h.provider.confirm(providerPaymentId, "succeed");
      h.clock.advance(2 * MINUTE_MS);
      await reconcilerOf(h).runOnce();
      await reconcilerOf(h).runOnce();
      const [settled] = await checksOf(h, at.subscriptionId);
      expect(settled).toMatchObject({ status: "succeeded", amountRefunded: { amount: "100" } });
      const now = json(await h.get(`/v1/subscriptions/${created.id}`));
      expect(now.methodMask).not.toBe(created.methodMask);
      expect((await typesOf(h)).filter((t) => t === "subscription.method_updated")).toHaveLength(1);
      expect(h.chargeCalls()).toBe(1);
    });

    it("settles a check once however often the provider's word comes: one method change, one refund, one event", async () => {
      const h = await createHarness(options);
      const { at } = await withLink(h);
      const started = (await h.kopek.methodUpdates.start({ ...at, method: "card" }))._unsafeUnwrap();
      if (started.kind !== "confirm") throw new Error("the link was not open");
      const providerPaymentId = started.payment.providerPaymentId ?? "";
      h.provider.confirm(providerPaymentId, "succeed");
      const back = { ...at, paymentId: started.payment.id };
      expect((await h.kopek.methodUpdates.check(back))._unsafeUnwrap().page.state).toBe("completed");
      const notified = await h.kopek.providerNotification({
        projectId: h.project.id,
        providerKind: h.project.provider.kind,
        notification: h.provider.notificationOf(providerPaymentId),
      });
      expect(notified.isOk()).toBe(true);
      expect((await h.kopek.methodUpdates.check(back))._unsafeUnwrap().page.state).toBe("completed");
      expect(h.refundCalls()).toBe(1);
      expect((await typesOf(h)).filter((t) => t === "subscription.method_updated")).toHaveLength(1);
    });

    it("puts the method on even when the check's refund gets no answer, and reconciliation refunds it", async () => {
      const h = await createHarness(options);
      const { at } = await withLink(h);
      const started = (await h.kopek.methodUpdates.start({ ...at, method: "card" }))._unsafeUnwrap();
      if (started.kind !== "confirm") throw new Error("the link was not open");
      h.provider.confirm(started.payment.providerPaymentId ?? "", "succeed");
      h.injectRefundFaults("outage");
      const back = { ...at, paymentId: started.payment.id };
      expect((await h.kopek.methodUpdates.check(back))._unsafeUnwrap().page.state).toBe("completed");
      const [check] = await checksOf(h, at.subscriptionId);
      expect(check).toMatchObject({ status: "succeeded", amountRefunded: { amount: "0" } });
      h.clock.advance(2 * MINUTE_MS);
      await reconcilerOf(h).runOnce();
      const [refunded] = await checksOf(h, at.subscriptionId);
      expect(refunded).toMatchObject({ amountRefunded: { amount: "100" } });
    });

    it("puts a new method on a trialing subscription, whose first charge then uses it", async () => {
      const h = await createHarness(options);
      const trialEnd = new Date(h.clock.now().getTime() + 7 * 24 * 60 * MINUTE_MS).toISOString();
      const created = json(await h.call("/v1/subscriptions", { ...subscriptionBody(), trialEnd }));
      expect(created).toMatchObject({ status: "trialing" });
      const link = json(await h.call(`/v1/subscriptions/${created.id}/method-update`, {}));
      const at = {
        projectId: h.project.id,
        subscriptionId: String(created.id),
        updateId: String(link.url).split("/").at(-1) ?? "",
      };
      const started = (await h.kopek.methodUpdates.start({ ...at, method: "card" }))._unsafeUnwrap();
      if (started.kind !== "confirm") throw new Error("the link was not open");
      expect(started.payment).toMatchObject({ kind: "verification", cycle: 1 });
      h.provider.confirm(started.payment.providerPaymentId ?? "", "succeed");
      const checked = (
        await h.kopek.methodUpdates.check({ ...at, paymentId: started.payment.id })
      )._unsafeUnwrap();
      expect(checked.page.state).toBe("completed");
      expect(json(await h.get(`/v1/subscriptions/${created.id}`))).toMatchObject({ status: "trialing" });
    });

    it("refuses a link when the provider saves no method the project charges later: 422, nothing stored", async () => {
      const h = await createHarness(options, { storedMethodCharge: false });
      // One made while the project still charged stored methods.
      const subscription = sampleSubscription(h.project.id, { nextAttemptAt: new Date(Date.now() + DAY_MS) });
      const claim = newClaim(h.project.id, h.clock.now().getTime());
      await h.storage.claimIdempotencyKey(claim);
      (
        await h.storage.completeIdempotencyKey(completionOf(claim, { kind: "subscription", subscription }))
      )._unsafeUnwrap();
      const refused = await h.call(`/v1/subscriptions/${subscription.id}/method-update`, {});
      expect(refused.status).toBe(422);
      expect(json(refused)).toMatchObject({ code: "method_unavailable" });
      const stored = (await h.storage.findSubscription(h.project.id, subscription.id))._unsafeUnwrap();
      expect(stored).toEqual(subscription);
      expect(h.chargeCalls()).toBe(0);
    });

    it("only refunds a check confirmed after the subscription was canceled", async () => {
      const h = await createHarness(options);
      const { created, at } = await withLink(h);
      const started = (await h.kopek.methodUpdates.start({ ...at, method: "card" }))._unsafeUnwrap();
      if (started.kind !== "confirm") throw new Error("the link was not open");
      expect((await h.call(`/v1/subscriptions/${created.id}/cancel`, {})).status).toBe(200);
      h.provider.confirm(started.payment.providerPaymentId ?? "", "succeed");
      const checked = (
        await h.kopek.methodUpdates.check({ ...at, paymentId: started.payment.id })
      )._unsafeUnwrap();
      expect(checked.page.state).toBe("closed");
      const now = json(await h.get(`/v1/subscriptions/${created.id}`));
      expect(now).toMatchObject({ status: "canceled", methodMask: created.methodMask });
      const [check] = await checksOf(h, at.subscriptionId);
      expect(check).toMatchObject({ status: "succeeded", amountRefunded: { amount: "100" } });
      expect(await typesOf(h)).not.toContain("subscription.method_updated");
    });
  });

  describe("a payer's new method saved with no payment (API.md 11.5)", () => {
    registerMethodSaveTests(options);
  });
}
