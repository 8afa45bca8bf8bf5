import { VERIFICATION_DESCRIPTION } from "@kopek/core";
import { sandboxMethodFingerprint } from "@kopek/provider-sandbox";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { uniqueMethodRef } from "./helper.js";
import { saveAtPage, tokenOf } from "./method-page.js";
import { SERVER_STORAGES } from "./postgres-database.js";
import { type Json, type ProviderServer, startProviderServer, until } from "./provider-server.js";

// API.md 11.5 over real HTTP on the built app: the link, Kopek's page, the sandbox's checkout, the
// verification payment refunded, the method put on, and a past-due subscription charged from it — on
// memory storage and on PostgreSQL.

const EN = { "accept-language": "en" };

describe.each(SERVER_STORAGES)(
  "a new payment method for a subscription (API.md 11.5) on %s",
  (_name, open) => {
    let server: ProviderServer;
    let closeStorage: () => Promise<void>;
    beforeAll(async () => {
      const opened = await open();
      closeStorage = opened.close;
      server = await startProviderServer(
        { kind: "sandbox", storedMethodCharge: true },
        { storage: opened.storage },
      );
    });
    afterAll(async () => {
      await server.close();
      await closeStorage();
    });

    async function subscribe(ref: string): Promise<Json> {
      const created = await server.post("/v1/subscriptions", {
        amount: { amount: "149900", currency: "RUB" },
        period: { unit: "month", count: 1 },
        method: "card",
        providerMethodRef: ref,
      });
      expect(created.status).toBe(201);
      return (await created.json()) as Json;
    }

    async function linkFor(id: string, status = 201): Promise<Json> {
      const made = await server.post(`/v1/subscriptions/${id}/method-update`, {});
      expect(made.status).toBe(status);
      return (await made.json()) as Json;
    }

    const paymentsOf = async (id: string) =>
      ((await server.get(`/v1/payments?subscriptionId=${id}`)).data as Json[]).sort((a, b) =>
        a.id < b.id ? -1 : 1,
      );

    it("recovers a past-due subscription: the new card saved with a refunded check, the overdue cycle charged from it at once", async () => {
      // Its second charge (the first renewal) is declined: past due.
      const oldRef = `sandbox_decline_charge_2_${uniqueMethodRef("x").slice(2)}`;
      const subscription = await subscribe(oldRef);
      server.time.shift(Date.parse(subscription.nextChargeAt) - server.time.clock.now().getTime() + 1000);
      expect(await server.renewals.runOnce()).toMatchObject({ claimed: 1, declined: 1 });
      const pastDue = await server.get(`/v1/subscriptions/${subscription.id}`);
      expect(pastDue).toMatchObject({ status: "past_due" });

      const link = await linkFor(subscription.id);
      const now = server.time.clock.now().getTime();
      expect(link.url).toMatch(
        new RegExp(`^${server.url}/method/${server.project.id}/${subscription.id}/[0-9a-f-]{36}$`),
      );
      expect(Date.parse(link.expiresAt) - now).toBeGreaterThan(24 * 3600_000 - 5000);
      expect(Date.parse(link.expiresAt) - now).toBeLessThanOrEqual(24 * 3600_000);

      const page = await (await fetch(link.url, { headers: EN })).text();
      expect(page).toContain("Update your payment method");
      expect(page).toContain("Save a card");
      expect(page).toContain("The overdue payment of");
      const token = await tokenOf(link.url);
      const saved = await saveAtPage(link.url);
      expect(saved).toMatchObject({ chosen: 303, status: 200 });
      expect(saved.body).toContain("Payment method updated");
      // What the payer read at the provider: the check's own description, in Russian.
      expect(server.ledger.payments().at(-1)?.description).toBe(VERIFICATION_DESCRIPTION);

      // The check: kind verification, 1.00 RUB, succeeded and refunded in full at once — by whichever of the
      // payer's return and the sandbox's notification settled it (they race; the loser only re-reads).
      const refunded = async () => (await paymentsOf(subscription.id))[2]?.amountRefunded?.amount === "100";
      expect(await until(refunded)).toBe(true);
      const [cycle1, cycle2, check] = await paymentsOf(subscription.id);
      expect([cycle1?.cycle, cycle1?.status, cycle2?.cycle, cycle2?.status]).toEqual([
        1,
        "succeeded",
        2,
        "canceled",
      ]);
      expect(check).toMatchObject({
        kind: "verification",
        status: "succeeded",
        amount: { amount: "100", currency: "RUB" },
        amountRefunded: { amount: "100", currency: "RUB" },
      });
      const updated = await server.get(`/v1/subscriptions/${subscription.id}`);
      expect(updated.status).toBe("past_due");
      expect(await until(() => server.hookTypes().includes("subscription.method_updated"))).toBe(true);

      // Due now: the worker charges the overdue cycle from the new method, not the old one.
      const before = server.ledger.charges().length;
      expect(await server.renewals.runOnce()).toMatchObject({ claimed: 1, charged: 1 });
      expect(await server.get(`/v1/subscriptions/${subscription.id}`)).toMatchObject({
        status: "active",
        cyclesStarted: 2,
      });
      const retry = server.ledger.charges().slice(before);
      expect(retry).toHaveLength(1);
      expect(retry[0]?.money).toEqual({ amount: "149900", currency: "RUB" });
      expect(retry[0]?.methodFingerprint).not.toBe(sandboxMethodFingerprint(oldRef));

      // The link is used: its page says so and takes no new method.
      expect(await (await fetch(link.url, { headers: EN })).text()).toContain("Payment method updated");
      expect((await saveAtPage(link.url, "succeed", token)).chosen).toBe(200);
      expect(await paymentsOf(subscription.id)).toHaveLength(4);
    });

    it("changes nothing when the payer's check is declined, and says so on the page", async () => {
      const subscription = await subscribe(uniqueMethodRef("sandbox_ok"));
      const link = await linkFor(subscription.id);
      const declined = await saveAtPage(link.url, "decline");
      expect(declined).toMatchObject({ chosen: 303, status: 200 });
      expect(declined.body).toContain("The method was declined");
      const after = await server.get(`/v1/subscriptions/${subscription.id}`);
      expect(after.methodMask).toBe(subscription.methodMask);
      const check = (await paymentsOf(subscription.id)).find((p) => p.kind === "verification");
      expect(check).toMatchObject({ status: "canceled", amountRefunded: { amount: "0" } });
      const hooks = server.receiver.received.map((hook) => JSON.parse(hook.body) as Json);
      expect(
        hooks.some((h) => h.type === "subscription.method_updated" && h.data.id === subscription.id),
      ).toBe(false);
    });

    it("refuses links for a canceled or unknown subscription, a body with fields, and takes none past 24 hours or once replaced", async () => {
      const subscription = await subscribe(uniqueMethodRef("sandbox_ok"));
      expect(
        (await server.post(`/v1/subscriptions/${subscription.id}/method-update`, { url: "x" })).status,
      ).toBe(422);
      expect(
        (await server.post("/v1/subscriptions/0190f3a0-1c2d-7e4f-8a9b-0c1d2e3f4a5b/method-update", {}))
          .status,
      ).toBe(404);

      const first = await linkFor(subscription.id);
      const firstToken = await tokenOf(first.url);
      const second = await linkFor(subscription.id);
      const secondToken = await tokenOf(second.url);
      expect(second.url).not.toBe(first.url);
      const replaced = await fetch(first.url, { headers: EN });
      expect(await replaced.text()).toContain("This link has expired");
      expect((await saveAtPage(first.url, "succeed", firstToken)).chosen).toBe(409);

      server.time.shift(24 * 3600_000 + 1000);
      const late = await saveAtPage(second.url, "succeed", secondToken);
      expect(late.chosen).toBe(409);
      expect(late.body).toContain("This link has expired");

      expect((await server.post(`/v1/subscriptions/${subscription.id}/cancel`, {})).status).toBe(200);
      const refused = await linkFor(subscription.id, 409);
      expect(refused).toMatchObject({ code: "invalid_state" });
      // No check was ever made for this subscription.
      expect((await paymentsOf(subscription.id)).filter((p) => p.kind === "verification")).toEqual([]);
    });
  },
);
