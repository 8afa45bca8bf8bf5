import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Webhook } from "standardwebhooks";
import { expect, it } from "vitest";
import { CHROMIUM, launchChromium } from "./chromium.js";
import { type Json, startYooKassaServer, until } from "./yookassa-fixture.js";

// The payer's whole round trip in headless Chromium: Kopek's page → the YooKassa emulator's checkout
// (through @kopek/provider-yookassa) → back to Kopek → returnUrl. Set up as pay-browser.test.ts.
//
// The page's Content-Security-Policy is enforced as a real browser does: its form's 303 to the
// emulator's checkout (another origin) is allowed only because the YooKassa adapter declares that
// origin (ProviderCapabilities.confirmationOrigins); a violation fails the flow tests.

const ARTIFACTS = new URL("../../../test-artifacts/", import.meta.url);

// Runs where Chromium is installed (.ci/run installs it, so CI always runs it). Elsewhere it is reported
// as skipped: a file with no test at all would fail `pnpm test` on a machine without a browser.
it.runIf(existsSync(CHROMIUM))(
  "pays an invoice by card in Chromium through the YooKassa emulator's checkout, returns to returnUrl, one signed invoice.paid",
  async () => {
    const s = await startYooKassaServer();
    const userDataDir = await mkdtemp(join(tmpdir(), "kopek-chromium-"));
    const context = await launchChromium(userDataDir);
    try {
      const invoice = await s.createInvoice({ description: "Two flat whites" });
      const page = await context.newPage();
      const violations: string[] = [];
      page.on("console", (m) => m.type() === "error" && violations.push(m.text()));
      await page.goto(invoice.paymentUrl);
      await page.getByRole("button", { name: "Pay with card" }).click();
      // At the emulator: YooKassa's confirmation_url, visibly a test.
      await page.waitForURL(new RegExp(`^${s.emulator.url}/checkout/[0-9a-f-]{36}$`));
      await expect(page.locator("h1").textContent()).resolves.toBe("TEST — YooKassa emulator");
      await expect(page.locator("body").textContent()).resolves.toContain("1499.00 RUB");
      await mkdir(ARTIFACTS, { recursive: true });
      await page.screenshot({
        path: new URL("yookassa-emulator-checkout.png", ARTIFACTS).pathname,
        fullPage: true,
      });
      await page.getByRole("button", { name: "Pay", exact: true }).click();
      // Back at Kopek, which asked YooKassa: the outcome, with the way back to the shop.
      await page.waitForURL(new RegExp(`${new URL(invoice.paymentUrl).pathname}/return\\?payment=`));
      await expect(page.locator(".notice.ok").textContent()).resolves.toContain("Paid");
      await page.getByRole("link", { name: "Back to Coffee Co" }).click();
      await page.waitForURL(`${s.receiver.url}/return?order=42`);
      // No CSP violation or script error (the emulator has no favicon: its 404 is the only error).
      expect(violations.filter((text) => !text.startsWith("Failed to load resource"))).toEqual([]);

      const payments = (await s.get(`/v1/payments?invoiceId=${invoice.id}`)).data as Json[];
      expect(payments.map((p) => [p.status, p.method, p.methodMask])).toEqual([
        ["succeeded", "card", "5555 55** **** 4477"],
      ]);
      // The emulator's notification and the payer's return both reached Kopek: still one event.
      await s.emulator.deliveries();
      expect(await until(() => s.receiver.received.length > 0)).toBe(true);
      await new Promise((r) => setTimeout(r, 200));
      expect(s.receiver.received).toHaveLength(1);
      const [hook] = s.receiver.received;
      const payload = new Webhook(s.secret).verify(
        hook?.body ?? "",
        hook?.headers as Record<string, string>,
      ) as Json;
      expect(payload).toMatchObject({
        type: "invoice.paid",
        data: { id: invoice.id, status: "paid", method: "card" },
      });
    } finally {
      await context.close();
      await s.close();
      await rm(userDataDir, { recursive: true, force: true });
    }
  },
  60_000,
);

it.runIf(existsSync(CHROMIUM))(
  "declines an SBP payment at the YooKassa emulator, then pays again: two attempts, one invoice.paid",
  async () => {
    const s = await startYooKassaServer();
    const userDataDir = await mkdtemp(join(tmpdir(), "kopek-chromium-"));
    const context = await launchChromium(userDataDir);
    try {
      const invoice = await s.createInvoice({ amount: { amount: "49900", currency: "RUB" }, method: "sbp" });
      const page = await context.newPage();
      await page.goto(invoice.paymentUrl);
      await expect(page.getByRole("button", { name: "Pay with card" }).count()).resolves.toBe(0);
      await page.getByRole("button", { name: "Pay with SBP" }).click();
      await page.waitForURL(new RegExp(`^${s.emulator.url}/checkout/`));
      await page.getByRole("button", { name: "Decline" }).click();
      // Back at Kopek: declined, nothing paid, and the page offers SBP again.
      await page.waitForURL(new RegExp(`${new URL(invoice.paymentUrl).pathname}/return\\?payment=`));
      await expect(page.locator("[role=alert]").textContent()).resolves.toContain("declined");
      await page.getByRole("button", { name: "Pay with SBP" }).click();
      await page.waitForURL(new RegExp(`^${s.emulator.url}/checkout/`));
      await page.getByRole("button", { name: "Pay", exact: true }).click();
      await page.waitForURL(new RegExp(`${new URL(invoice.paymentUrl).pathname}/return\\?payment=`));
      await expect(page.locator(".notice.ok").textContent()).resolves.toContain("Paid");
      await page.getByRole("link", { name: "Back to Coffee Co" }).click();
      await page.waitForURL(`${s.receiver.url}/return?order=42`);

      const payments = (await s.get(`/v1/payments?invoiceId=${invoice.id}`)).data as Json[];
      expect(payments.map((p) => [p.status, p.method, p.failureCode, p.methodMask])).toEqual([
        ["succeeded", "sbp", null, null],
        ["canceled", "sbp", "payment_declined", null],
      ]);
      expect([...s.emulator.books.payments.values()].map((p) => (p.payment_method as Json).type)).toEqual([
        "sbp",
        "sbp",
      ]);
      await s.emulator.deliveries();
      expect(await until(() => s.receiver.received.length > 1)).toBe(true);
      await new Promise((r) => setTimeout(r, 200));
      expect(s.hookTypes()).toEqual(["invoice.paid", "payment.canceled"]);
    } finally {
      await context.close();
      await s.close();
      await rm(userDataDir, { recursive: true, force: true });
    }
  },
  60_000,
);
