import { existsSync } from "node:fs";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { CHROMIUM, withChromium } from "./chromium.js";
import { type Json, type ProviderServer, until } from "./provider-server.js";
import { startTBankServer } from "./tbank-fixture.js";
import { startYooKassaServer } from "./yookassa-fixture.js";

// API.md 11.5 where the provider saves a card with no payment (the project's `saveWithoutPayment`):
// YooKassa's POST /v3/payment_methods and T-Bank's AddCustomer + AddCard, each on its emulator. A real
// server over real HTTP and the payer in headless Chromium on Kopek's page and on the provider's; every
// step checked on what the provider itself holds: no check payment, no refund, and the next renewal
// charged from exactly the card saved now.

const AMOUNT = { amount: "149900", currency: "RUB" };

interface SaveRun {
  readonly server: ProviderServer;
  /** At the provider's checkout, the invoice's payment (saving the first card). */
  payAtCheckout(page: Page): Promise<void>;
  /** At the provider's save page (a URL of its emulator), the payer saves a card. */
  saveAtProvider(page: Page): Promise<void>;
  /** How many payments the provider made, and how many refunds. */
  books(): { readonly payments: number; readonly refunds: number };
  /** The method the provider saved with no payment, and the one its last payment charged. */
  savedMethod(): string;
  lastCharged(): string;
  close(): Promise<void>;
}

const PROVIDERS: readonly { readonly name: string; start(): Promise<SaveRun> }[] = [
  {
    name: "the YooKassa emulator",
    async start() {
      const server = await startYooKassaServer({ saveWithoutPayment: true });
      const { emulator } = server;
      const payments = () => [...emulator.books.payments.values()] as Json[];
      return {
        server,
        async payAtCheckout(page) {
          await page.waitForURL(new RegExp(`^${emulator.url}/checkout/[0-9a-f-]{36}$`));
          await page.getByRole("button", { name: "Pay", exact: true }).click();
        },
        async saveAtProvider(page) {
          await page.waitForURL(new RegExp(`^${emulator.url}/checkout/payment-methods/[0-9a-f-]{36}$`));
          await page.getByRole("button", { name: "Save card" }).click();
        },
        books: () => ({
          payments: payments().filter((p) => p.status === "succeeded").length,
          refunds: emulator.books.refunds.size,
        }),
        savedMethod: () =>
          String([...emulator.methodSaves.saves.values()].find((m) => m.status === "active")?.id ?? "none"),
        lastCharged: () => String(payments().at(-1)?.payment_method?.id ?? "none"),
        close: () => server.close(),
      };
    },
  },
  {
    name: "the T-Bank emulator",
    async start() {
      const server = await startTBankServer({ saveWithoutPayment: true });
      const { emulator } = server;
      const paid = () => [...emulator.books.payments.values()].filter((p) => p.Status === "CONFIRMED");
      return {
        server,
        async payAtCheckout(page) {
          await page.waitForURL(new RegExp(`^${emulator.url}/new/[0-9]+$`));
          await page.getByRole("button", { name: "Pay", exact: true }).click();
        },
        async saveAtProvider(page) {
          await page.waitForURL(new RegExp(`^${emulator.url}/addcard/[0-9a-f-]{36}$`));
          await page.getByRole("button", { name: "Save card" }).click();
        },
        books: () => ({ payments: paid().length, refunds: emulator.books.refunds.length }),
        savedMethod: () =>
          [...emulator.cardBindings.bindings.values()].find((b) => b.Status === "COMPLETED")?.RebillId ??
          "none",
        lastCharged: () => paid().at(-1)?.rebillId ?? "none",
        close: () => server.close(),
      };
    },
  },
];

describe.each(PROVIDERS)("a payer's new card saved with no payment on $name", (provider) => {
  it.runIf(existsSync(CHROMIUM))(
    "saves the card in Chromium with nothing charged or refunded, and the next renewal charges exactly that card",
    async () => {
      const s = await provider.start();
      try {
        await withChromium(async (context) => {
          // A subscription on a card saved at a checkout (API.md 10.5).
          const invoice = await s.server.createInvoice({ savePaymentMethod: true });
          const page = await context.newPage();
          await page.goto(invoice.paymentUrl);
          await page.getByRole("button", { name: "Pay with card" }).click();
          await s.payAtCheckout(page);
          await page.waitForURL(/\/return\?payment=/);
          const created = await s.server.post("/v1/subscriptions", {
            amount: AMOUNT,
            period: { unit: "month", count: 1 },
            invoiceId: invoice.id,
          });
          expect(created.status).toBe(201);
          const subscription = (await created.json()) as Json;
          expect(s.books()).toEqual({ payments: 1, refunds: 0 });

          // The merchant's link; the payer saves a new card on Kopek's page and the provider's.
          const made = await s.server.post(`/v1/subscriptions/${subscription.id}/method-update`, {});
          const link = (await made.json()) as Json;
          await page.goto(link.url);
          expect(await page.locator("main").textContent()).toContain("Saving a card charges nothing.");
          await page.getByRole("button", { name: "Save a card" }).click();
          await s.saveAtProvider(page);
          // YooKassa returns the payer to the save's return_url; T-Bank to the terminal's Success Add
          // Card URL (Kopek's /method/return), which sends them on to the same page.
          await page.waitForURL(new RegExp(`${new URL(link.url).pathname}/return\\?save=`));
          await expect(page.locator(".notice.ok").textContent()).resolves.toContain(
            "Your new payment method is saved",
          );

          // Nothing moved: no check, no refund, no Payment in Kopek.
          expect(s.books()).toEqual({ payments: 1, refunds: 0 });
          const payments = (await s.server.get(`/v1/payments?subscriptionId=${subscription.id}`)).data;
          expect(payments).toEqual([]);
          const updated = await s.server.get(`/v1/subscriptions/${subscription.id}`);
          expect(updated).toMatchObject({ status: "active", method: "card" });
          expect(await until(() => s.server.hookTypes().includes("subscription.method_updated"))).toBe(true);

          // The next renewal charges the card saved now, once.
          s.server.time.shift(Date.parse(updated.nextChargeAt) - s.server.time.clock.now().getTime() + 1000);
          expect(await s.server.renewals.runOnce()).toMatchObject({ claimed: 1, charged: 1 });
          expect(s.books()).toEqual({ payments: 2, refunds: 0 });
          expect(s.lastCharged()).toBe(s.savedMethod());
        });
      } finally {
        await s.close();
      }
    },
    30_000,
  );
});
