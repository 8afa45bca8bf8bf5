import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { CHROMIUM, withChromium } from "./chromium.js";
import { type Json, until } from "./provider-server.js";
import { PROVIDERS } from "./providers-under-test.js";

// Checkout → subscription → renewal → refund (issue 16), end to end for every provider in
// providers-under-test.ts, unchanged: a real server over real HTTP, the payer in headless Chromium on
// Kopek's page and the provider's, and each step checked on what the provider itself received.

const RECEIPT = {
  customer: { email: "payer@example.test" },
  taxSystemCode: 1,
  items: [
    {
      description: "Coffee beans, 1 kg",
      quantity: "2",
      amount: { amount: "50000", currency: "RUB" },
      vatCode: 1,
      paymentSubject: "commodity",
      paymentMode: "full_payment",
    },
    {
      description: "Delivery",
      quantity: "1",
      amount: { amount: "49900", currency: "RUB" },
      vatCode: 1,
      paymentSubject: "service",
      paymentMode: "full_payment",
    },
  ],
};
/** The receipt as every provider's books are read back (providers-under-test.ts, `SeenReceipt`). */
const SEEN_RECEIPT = {
  email: "payer@example.test",
  items: [
    ["Coffee beans, 1 kg", "2", "50000"],
    ["Delivery", "1", "49900"],
  ],
};
const AMOUNT = { amount: "149900", currency: "RUB" };

describe.each(PROVIDERS)("checkout → subscription → renewal → refund on $name", (provider) => {
  it.runIf(existsSync(CHROMIUM))(
    "pays by card in Chromium saving the card, subscribes without a second charge, renews on the saved card with the receipt, refunds in part",
    async () => {
      const s = await provider.start();
      try {
        await withChromium(async (context) => {
          // 1. The merchant's invoice, asking to save the payer's method, with its 54-FZ receipt.
          const invoice = await s.server.createInvoice({ savePaymentMethod: true, receipt: RECEIPT });

          // 2. The payer pays by card: Kopek's page, then the provider's, then back to Kopek.
          const page = await context.newPage();
          await page.goto(invoice.paymentUrl);
          await page.getByRole("button", { name: "Pay with card" }).click();
          await s.payAtProvider(page, "card");
          await page.waitForURL(new RegExp(`${new URL(invoice.paymentUrl).pathname}/return\\?payment=`));
          await expect(page.locator(".notice.ok").textContent()).resolves.toContain("Paid");

          // 3. The paid invoice shows the saved card; the provider took one payment, with the receipt.
          const paid = await s.server.get(`/v1/invoices/${invoice.id}`);
          expect(paid).toMatchObject({ status: "paid", savedMethod: { method: "card" } });
          expect(paid.savedMethod.methodMask).toMatch(provider.cardMask);
          expect(s.charges()).toEqual([{ amount: "149900", bySavedMethod: false, receipt: SEEN_RECEIPT }]);

          // 4. A subscription from the invoice: active at once, its payment is cycle 1, nothing charged.
          // Its receipt is what each renewal sells (API.md 10.7).
          const created = await s.server.post("/v1/subscriptions", {
            amount: AMOUNT,
            period: { unit: "month", count: 1 },
            invoiceId: invoice.id,
            receipt: RECEIPT,
          });
          const subscription = (await created.json()) as Json;
          expect(created.status).toBe(201);
          expect(subscription).toMatchObject({ status: "active", cyclesStarted: 1, startedAt: paid.paidAt });
          expect(s.charges()).toHaveLength(1);

          // 5. At the next renewal the worker charges the saved card once, with the receipt again.
          s.server.time.shift(
            Date.parse(subscription.nextChargeAt) - s.server.time.clock.now().getTime() + 1000,
          );
          expect(await s.server.renewals.runOnce()).toMatchObject({ claimed: 1, charged: 1 });
          expect(await s.server.renewals.runOnce()).toMatchObject({ claimed: 0, charged: 0 });
          expect(s.charges()).toEqual([
            { amount: "149900", bySavedMethod: false, receipt: SEEN_RECEIPT },
            { amount: "149900", bySavedMethod: true, receipt: SEEN_RECEIPT },
          ]);
          const payments = (await s.server.get(`/v1/payments?subscriptionId=${subscription.id}`))
            .data as Json[];
          expect(payments.map((p) => [p.cycle, p.status, p.method])).toEqual([[2, "succeeded", "card"]]);
          expect(await s.server.get(`/v1/subscriptions/${subscription.id}`)).toMatchObject({
            status: "active",
            cyclesStarted: 2,
          });

          // 6. Part of the checkout payment refunded (one bag of beans): at the provider with the returned
          // part of the receipt (API.md 10.7, docs/api.md), on the Payment, to the merchant.
          const [payment] = (await s.server.get(`/v1/payments?invoiceId=${invoice.id}`)).data as Json[];
          const refunded = await s.server.post(`/v1/payments/${payment?.id}/refunds`, {
            amount: { amount: "50000", currency: "RUB" },
            reason: "one bag arrived torn",
          });
          expect(refunded.status).toBe(201);
          expect(await refunded.json()).toMatchObject({ status: "succeeded", amount: { amount: "50000" } });
          expect((await s.server.get(`/v1/payments/${payment?.id}`)).amountRefunded).toEqual({
            amount: "50000",
            currency: "RUB",
          });
          expect(s.refunds()).toEqual([
            {
              amount: "50000",
              status: "succeeded",
              receipt: { email: "payer@example.test", items: [["Coffee beans, 1 kg", "1", "50000"]] },
            },
          ]);
          expect(await until(() => s.server.hookTypes().includes("refund.succeeded"))).toBe(true);
          expect(s.charges()).toHaveLength(2);
        });
      } finally {
        await s.close();
      }
    },
    30_000,
  );

  it.runIf(existsSync(CHROMIUM))(
    "pays an SBP invoice in Chromium: Kopek's page offers SBP alone, the provider takes one payment",
    async () => {
      const s = await provider.start();
      try {
        await withChromium(async (context) => {
          const invoice = await s.server.createInvoice({
            amount: { amount: "49900", currency: "RUB" },
            method: "sbp",
          });
          const page = await context.newPage();
          await page.goto(invoice.paymentUrl);
          await expect(page.getByRole("button", { name: "Pay with card" }).count()).resolves.toBe(0);
          await page.getByRole("button", { name: "Pay with SBP" }).click();
          await s.payAtProvider(page, "sbp");
          await page.waitForURL(new RegExp(`${new URL(invoice.paymentUrl).pathname}/return\\?payment=`));
          await expect(page.locator(".notice.ok").textContent()).resolves.toContain("Paid");

          expect(await s.server.get(`/v1/invoices/${invoice.id}`)).toMatchObject({
            status: "paid",
            savedMethod: null,
          });
          const payments = (await s.server.get(`/v1/payments?invoiceId=${invoice.id}`)).data as Json[];
          expect(payments.map((p) => [p.status, p.method, p.amount.amount])).toEqual([
            ["succeeded", "sbp", "49900"],
          ]);
          expect(s.charges()).toEqual([{ amount: "49900", bySavedMethod: false, receipt: null }]);
          expect(await until(() => s.server.hookTypes().includes("invoice.paid"))).toBe(true);
        });
      } finally {
        await s.close();
      }
    },
    30_000,
  );
});
