import { createPaymentReconciler } from "@kopek/core";
import { describe, expect, it } from "vitest";
import {
  createHarness,
  json,
  type KopekContractOptions,
  type KopekHarness,
  subscriptionBody,
} from "./kopek-harness.js";

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;

/** A reconciler started anew over the same storage and provider, as the server runs it: the process after a restart. */
export const restartedReconciler = (h: KopekHarness) =>
  createPaymentReconciler({
    storage: h.storage,
    providerFor: () => h.provider,
    clock: h.clock,
    publicUrl: () => "https://pay.example.test",
  });

type Listed = Record<string, unknown>;
export const list = async (h: KopekHarness, path: string, query: Record<string, string> = {}) =>
  json(await h.get(path, { limit: "100", ...query })).data as Listed[];

/**
 * Every charge the provider made that Kopek cannot account for: no Payment records it, or it moved
 * money for a subscription that does not exist and was not refunded in full. Empty is the promise.
 */
export async function unaccountedCharges(h: KopekHarness): Promise<string[]> {
  const payments = await list(h, "/v1/payments");
  const refunds = await list(h, "/v1/refunds", { status: "succeeded" });
  const unaccounted: string[] = [];
  for (const chargeId of h.provider.chargeIds()) {
    const payment = payments.find((p) => p.providerPaymentId === chargeId);
    if (payment === undefined || payment.status !== "succeeded") {
      unaccounted.push(`${chargeId}: no succeeded Payment records it`);
      continue;
    }
    const subscription = await h.get(`/v1/subscriptions/${String(payment.subscriptionId)}`);
    if (payment.subscriptionId === null || subscription.status === 200) continue;
    const refunded = refunds
      .filter((r) => r.paymentId === payment.id)
      .reduce((sum, r) => sum + BigInt((r.amount as { amount: string }).amount), 0n);
    if (refunded !== BigInt((payment.amount as { amount: string }).amount))
      unaccounted.push(`${chargeId}: kept for subscription ${String(payment.subscriptionId)}, never created`);
  }
  return unaccounted;
}

/**
 * Issue 38: no provider call moves money without a record. A subscription's first charge and each
 * renewal attempt commit a pending Payment before the provider is called; when the write after the
 * call fails (or the process dies), reconciliation or the next attempt finds it, and the money is
 * either recorded with what it paid for or refunded.
 */
export function registerNoLostChargeTests(options: KopekContractOptions): void {
  describe("no charge without a record", () => {
    it("a create whose final write fails after the charge: a retry completes it with that charge; one never retried is refunded", async () => {
      const h = await createHarness(options);
      h.storageFaults.failWrite("completeIdempotencyKey");
      h.storageFaults.failWrite("completeIdempotencyKey");
      expect((await h.call("/v1/subscriptions", subscriptionBody(), "retried")).status).toBe(500);
      expect((await h.call("/v1/subscriptions", subscriptionBody(), "abandoned")).status).toBe(500);
      expect(h.provider.chargesMade()).toBe(2);
      const recorded = await list(h, "/v1/payments");
      expect(recorded).toEqual([
        expect.objectContaining({ status: "pending", cycle: 1, providerPaymentId: null }),
        expect.objectContaining({ status: "pending", cycle: 1, providerPaymentId: null }),
      ]);

      // The retry runs the same execution again: the provider answers its key with the same charge.
      const retried = await h.call("/v1/subscriptions", subscriptionBody(), "retried");
      expect(retried.status).toBe(201);
      expect(h.provider.chargesMade()).toBe(2);
      const [first] = await list(h, "/v1/payments", { subscriptionId: json(retried).id as string });
      expect(recorded.map((p) => p.id)).toContain(first?.id);
      expect(first).toMatchObject({ status: "succeeded", providerPaymentId: expect.any(String) });

      // The other is never retried: after its lease, a restarted reconciler refunds its charge.
      h.clock.advance(2 * MINUTE_MS);
      await restartedReconciler(h).runOnce();
      const orphan = (await list(h, "/v1/payments")).find((p) => p.id !== first?.id);
      expect(orphan).toMatchObject({
        status: "succeeded",
        amountRefunded: expect.objectContaining({ amount: "149900" }),
      });
      expect(await unaccountedCharges(h)).toEqual([]);
      expect(await list(h, "/v1/subscriptions")).toHaveLength(1);
      // Too late for the abandoned request now: answered as it ended, never charged again.
      const late = await h.call("/v1/subscriptions", subscriptionBody(), "abandoned");
      expect(late.status).toBe(409);
      expect(json(late).code).toBe("invalid_state");
      expect(h.provider.chargesMade()).toBe(2);
    });

    it("a create whose process dies after the charge: reconciliation finds the charge by its key and refunds it", async () => {
      const h = await createHarness(options);
      h.injectChargeFaults("charge-then-hang");
      void h.call("/v1/subscriptions", subscriptionBody());
      while (h.provider.chargesMade() < 1) await new Promise((resolve) => setTimeout(resolve, 1));
      // While the create could still be running, nothing is decided.
      expect(await restartedReconciler(h).runOnce()).toMatchObject({ claimed: 0 });
      h.clock.advance(2 * MINUTE_MS);
      await restartedReconciler(h).runOnce();
      expect(await list(h, "/v1/payments")).toEqual([
        expect.objectContaining({
          status: "succeeded",
          amountRefunded: expect.objectContaining({ amount: "149900" }),
        }),
      ]);
      expect(await unaccountedCharges(h)).toEqual([]);
    });

    it("a create with no answer from the provider: a charge it made is refunded, one it never made is canceled", async () => {
      const h = await createHarness(options);
      h.injectChargeFaults("charge-then-outage", "outage");
      expect((await h.call("/v1/subscriptions", subscriptionBody())).status).toBe(503);
      expect((await h.call("/v1/subscriptions", subscriptionBody())).status).toBe(503);
      expect(h.provider.chargesMade()).toBe(1);
      h.clock.advance(2 * MINUTE_MS);
      await restartedReconciler(h).runOnce();
      const statuses = (await list(h, "/v1/payments")).map((p) => [p.status, p.failureCode]);
      expect(statuses.sort()).toEqual([
        ["canceled", "provider_error"],
        ["succeeded", null],
      ]);
      expect(await unaccountedCharges(h)).toEqual([]);
      expect(await list(h, "/v1/subscriptions")).toHaveLength(0);
    });

    it("a declined create leaves its Payment canceled and nothing to reconcile", async () => {
      const h = await createHarness(options);
      const declined = await h.call("/v1/subscriptions", subscriptionBody(options.declinedRef));
      expect(declined.status).toBe(402);
      expect(await list(h, "/v1/payments")).toEqual([
        expect.objectContaining({ status: "canceled", failureCode: "payment_declined" }),
      ]);
      h.clock.advance(2 * MINUTE_MS);
      expect(await restartedReconciler(h).runOnce()).toMatchObject({ claimed: 0 });
    });

    it("a renewal whose write fails after the charge: the next run finds its Payment and records the same charge", async () => {
      const h = await createHarness(options);
      const id = json(await h.call("/v1/subscriptions", subscriptionBody())).id as string;
      h.clock.advance(31 * DAY_MS);
      // The attempt's record commits (the first write); the write of the charge's answer fails.
      h.storageFaults.failWrite("saveSubscription", { skip: 1 });
      const errors: unknown[] = [];
      await h.worker({ onError: (cause) => errors.push(cause) }).runOnce();
      expect(errors).toHaveLength(1);
      expect(h.provider.chargesMade()).toBe(2);
      const open = (await list(h, "/v1/payments", { subscriptionId: id })).find((p) => p.cycle === 2);
      expect(open).toMatchObject({ status: "pending", providerPaymentId: null });

      h.clock.advance(2 * MINUTE_MS);
      expect(await h.worker().runOnce()).toMatchObject({ charged: 1 });
      expect(h.provider.chargesMade()).toBe(2);
      expect(json(await h.get(`/v1/subscriptions/${id}`))).toMatchObject({
        status: "active",
        cyclesStarted: 2,
      });
      expect(await list(h, "/v1/payments", { subscriptionId: id })).toHaveLength(2);
      expect(await unaccountedCharges(h)).toEqual([]);
    });
  });
}
