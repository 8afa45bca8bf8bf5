import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { CHROMIUM, withChromium } from "./chromium.js";
import { type Json, until } from "./provider-server.js";
import { PROVIDERS } from "./providers-under-test.js";

// API.md 11.5 end to end for every provider in providers-under-test.ts (the sandbox, the YooKassa and
// T-Bank emulators): a real server over real HTTP, the payer in headless Chromium on Kopek's
// method-update page and on the provider's, each step checked on what the provider itself received.

const AMOUNT = { amount: "149900", currency: "RUB" };

describe.each(PROVIDERS)("a payer's new card on $name", (provider) => {
  it.runIf(existsSync(CHROMIUM))(
    "saves a new card in Chromium with a 1.00 RUB check refunded at once, and the next renewal charges the saved card",
    async () => {
      const s = await provider.start();
      try {
        await withChromium(async (context) => {
          // A subscription on a card saved at a checkout (API.md 10.5).
          const invoice = await s.server.createInvoice({ savePaymentMethod: true });
          const page = await context.newPage();
          await page.goto(invoice.paymentUrl);
          await page.getByRole("button", { name: "Pay with card" }).click();
          await s.payAtProvider(page, "card");
          await page.waitForURL(/\/return\?payment=/);
          const created = await s.server.post("/v1/subscriptions", {
            amount: AMOUNT,
            period: { unit: "month", count: 1 },
            invoiceId: invoice.id,
          });
          expect(created.status).toBe(201);
          const subscription = (await created.json()) as Json;

          // The merchant's link; the payer saves a new card on Kopek's page and the provider's.
          const made = await s.server.post(`/v1/subscriptions/${subscription.id}/method-update`, {});
          expect(made.status).toBe(201);
          const link = (await made.json()) as Json;
          await page.goto(link.url);
          await expect(page.locator("h1").textContent()).resolves.toBe("Coffee Co");
          await page.getByRole("button", { name: "Save a card" }).click();
          await s.payAtProvider(page, "card");
          await page.waitForURL(new RegExp(`${new URL(link.url).pathname}/return\\?payment=`));
          await expect(page.locator(".notice.ok").textContent()).resolves.toContain(
            "Your new payment method is saved",
          );

          // The provider's books: the checkout's payment and the check of 1.00 RUB, the check refunded in full
          // (by whichever of the payer's return and the provider's notification settled it: they race).
          expect(await until(() => s.refunds().length === 1)).toBe(true);
          expect(s.charges().map((c) => [c.amount, c.bySavedMethod])).toEqual([
            ["149900", false],
            ["100", false],
          ]);
          expect(s.refunds().map((r) => [r.amount, r.status])).toEqual([["100", "succeeded"]]);
          const refundedInKopek = async () =>
            ((await s.server.get(`/v1/payments?subscriptionId=${subscription.id}`)).data as Json[])[0]
              ?.amountRefunded?.amount === "100";
          expect(await until(refundedInKopek)).toBe(true);
          const payments = (await s.server.get(`/v1/payments?subscriptionId=${subscription.id}`))
            .data as Json[];
          expect(payments.map((p) => [p.kind, p.status, p.amount.amount, p.amountRefunded.amount])).toEqual([
            ["verification", "succeeded", "100", "100"],
          ]);
          const updated = await s.server.get(`/v1/subscriptions/${subscription.id}`);
          expect(updated).toMatchObject({ status: "active", method: "card" });
          expect(updated.methodMask).toMatch(provider.cardMask);
          expect(await until(() => s.server.hookTypes().includes("subscription.method_updated"))).toBe(true);

          // The next renewal charges the card saved now, once.
          s.server.time.shift(Date.parse(updated.nextChargeAt) - s.server.time.clock.now().getTime() + 1000);
          expect(await s.server.renewals.runOnce()).toMatchObject({ claimed: 1, charged: 1 });
          expect(s.charges().map((c) => [c.amount, c.bySavedMethod])).toEqual([
            ["149900", false],
            ["100", false],
            ["149900", true],
          ]);
        });
      } finally {
        await s.close();
      }
    },
    30_000,
  );
});
