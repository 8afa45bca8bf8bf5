import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Webhook } from "standardwebhooks";
import { expect, it } from "vitest";
import { CHROMIUM, launchChromium } from "./chromium.js";
import { startPayServer } from "./pay-fixture.js";
import { startReceiver } from "./webhook-receiver.js";

const ARTIFACTS = new URL("../../../test-artifacts/", import.meta.url);

async function until(check: () => boolean, ms = 5000) {
  const end = Date.now() + ms;
  while (!check() && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
}

// Runs where Chromium is installed (.ci/run installs it, so CI always runs it). Elsewhere it is reported
// as skipped: a file with no test at all would fail `pnpm test` on a machine without a browser.
it.runIf(existsSync(CHROMIUM))(
  "pays an invoice in headless Chromium through the sandbox's checkout, returns to returnUrl, and the merchant gets one signed invoice.paid",
  async () => {
    const receiver = await startReceiver();
    const server = await startPayServer(`${receiver.url}/hooks`);
    const userDataDir = await mkdtemp(join(tmpdir(), "kopek-chromium-"));
    const context = await launchChromium(userDataDir);
    try {
      const created = await server.post("/v1/invoices", {
        amount: { amount: "149900", currency: "RUB" },
        description: "Two flat whites <b>",
        returnUrl: `${receiver.url}/return?order=42`,
      });
      expect(created.status).toBe(201);
      const invoice = (await created.json()) as { id: string; paymentUrl: string };
      const page = await context.newPage();
      const violations: string[] = [];
      page.on("console", (m) => m.type() === "error" && violations.push(m.text()));
      await page.goto(invoice.paymentUrl);
      await expect(page.locator(".amount").textContent()).resolves.toBe("RUB\u00a01,499.00");
      await expect(page.locator("h1").textContent()).resolves.toBe("Coffee <&> Co");
      await expect(page.locator(".description").textContent()).resolves.toBe("Two flat whites <b>");
      await mkdir(ARTIFACTS, { recursive: true });
      await page.screenshot({ path: new URL("payment-page.png", ARTIFACTS).pathname, fullPage: true });
      // On to the sandbox provider's checkout: visibly a test, and the payer's word is given there.
      await page.getByRole("button", { name: "Pay with card" }).click();
      await page.waitForURL(/\/sandbox\/checkout\/pay_[0-9a-f]{32}$/);
      await expect(page.locator("strong").first().textContent()).resolves.toBe("TEST");
      await expect(page.locator("h1").textContent()).resolves.toBe("RUB\u00a01,499.00");
      await page.screenshot({ path: new URL("sandbox-checkout.png", ARTIFACTS).pathname, fullPage: true });
      await page.getByRole("button", { name: "Succeed" }).click();
      // Back at Kopek, which asked the provider: the outcome, with the way back to the shop.
      await page.waitForURL(new RegExp(`${new URL(invoice.paymentUrl).pathname}/return\\?payment=`));
      await expect(page.locator(".notice.ok").textContent()).resolves.toContain("Paid");
      await page.getByRole("link", { name: "Back to Coffee <&> Co" }).click();
      await page.waitForURL(`${receiver.url}/return?order=42`);
      expect(violations).toEqual([]);

      await until(() => receiver.received.length > 0);
      await new Promise((r) => setTimeout(r, 200)); // anything more would arrive now
      expect(receiver.received).toHaveLength(1);
      const [hook] = receiver.received;
      const payload = new Webhook(server.secret).verify(
        hook?.body ?? "",
        hook?.headers as Record<string, string>,
      ) as {
        type: string;
        data: { id: string; status: string; method: string };
      };
      expect(payload).toMatchObject({
        type: "invoice.paid",
        data: { id: invoice.id, status: "paid", method: "card" },
      });

      // Back to the link: the receipt, never a second payment.
      await page.goto(invoice.paymentUrl);
      await expect(page.locator(".notice.ok").textContent()).resolves.toContain("Paid");
      await expect(page.getByRole("button", { name: "Pay with card" }).count()).resolves.toBe(0);
    } finally {
      await context.close();
      await server.close();
      await receiver.close();
      await rm(userDataDir, { recursive: true, force: true });
    }
  },
  60_000,
);

it.runIf(existsSync(CHROMIUM))(
  "declines an SBP payment at the sandbox's checkout, then pays again: two attempts, one invoice.paid",
  async () => {
    const receiver = await startReceiver();
    const server = await startPayServer(`${receiver.url}/hooks`);
    const userDataDir = await mkdtemp(join(tmpdir(), "kopek-chromium-"));
    const context = await launchChromium(userDataDir);
    try {
      const created = await server.post("/v1/invoices", {
        amount: { amount: "49900", currency: "RUB" },
        method: "sbp",
        returnUrl: `${receiver.url}/return?order=43`,
      });
      const invoice = (await created.json()) as { id: string; paymentUrl: string };
      const page = await context.newPage();
      await page.goto(invoice.paymentUrl);
      await expect(page.getByRole("button", { name: "Pay with card" }).count()).resolves.toBe(0);
      await page.getByRole("button", { name: "Pay with SBP" }).click();
      await page.waitForURL(/\/sandbox\/checkout\/pay_/);
      await expect(page.locator("main").textContent()).resolves.toContain("SBP");
      await page.getByRole("button", { name: "Decline" }).click();
      // Back at Kopek: declined, nothing paid, and the page offers SBP again.
      await page.waitForURL(new RegExp(`${new URL(invoice.paymentUrl).pathname}/return\\?payment=`));
      await expect(page.locator("[role=alert]").textContent()).resolves.toContain("declined");
      await page.getByRole("button", { name: "Pay with SBP" }).click();
      await page.waitForURL(/\/sandbox\/checkout\/pay_/);
      await page.getByRole("button", { name: "Succeed" }).click();
      await page.waitForURL(new RegExp(`${new URL(invoice.paymentUrl).pathname}/return\\?payment=`));
      await expect(page.locator(".notice.ok").textContent()).resolves.toContain("Paid");

      const payments = (await server.get(`/v1/payments?invoiceId=${invoice.id}`)).data as {
        status: string;
        method: string;
      }[];
      expect(payments.map((p) => [p.status, p.method])).toEqual([
        ["succeeded", "sbp"],
        ["canceled", "sbp"],
      ]);
      // The declined attempt's payment.canceled and the invoice.paid, each once.
      await until(() => receiver.received.length > 1);
      await new Promise((r) => setTimeout(r, 200));
      const types = receiver.received.map((hook) => (JSON.parse(hook.body) as { type: string }).type);
      expect(types.sort()).toEqual(["invoice.paid", "payment.canceled"]);
    } finally {
      await context.close();
      await server.close();
      await receiver.close();
      await rm(userDataDir, { recursive: true, force: true });
    }
  },
  60_000,
);

it.runIf(existsSync(CHROMIUM))(
  "a Russian browser sees the page, the TEST checkout and the receipt in Russian, and pays",
  async () => {
    const receiver = await startReceiver();
    const server = await startPayServer(`${receiver.url}/hooks`);
    const userDataDir = await mkdtemp(join(tmpdir(), "kopek-chromium-"));
    const context = await launchChromium(userDataDir, "ru-RU");
    try {
      const { displayName: _none, ...project } = server.project;
      (await server.storage.saveProject({ ...project, displayName: "Кофейня «Зерно»" }))._unsafeUnwrap();
      const created = await server.post("/v1/invoices", {
        amount: { amount: "149900", currency: "RUB" },
        description: "Два флэт уайта",
        returnUrl: `${receiver.url}/return?order=44`,
      });
      const invoice = (await created.json()) as { id: string; paymentUrl: string };
      const page = await context.newPage();
      const violations: string[] = [];
      page.on("console", (m) => m.type() === "error" && violations.push(m.text()));
      await page.goto(invoice.paymentUrl);
      await expect(page.locator("html").getAttribute("lang")).resolves.toBe("ru");
      // No-break spaces, as Intl.NumberFormat('ru-RU') writes them: shown as spaces (see the screenshot).
      await expect(page.locator(".amount").textContent()).resolves.toBe("1\u00a0499,00\u00a0₽");
      await expect(page.locator("h1").textContent()).resolves.toBe("Кофейня «Зерно»");
      await expect(page.locator(".expires").textContent()).resolves.toMatch(
        /^Оплатить до \d{1,2} [а-я]+ \d{4} г\., \d\d:\d\d[\s\u00a0]\(МСК\)$/,
      );
      await mkdir(ARTIFACTS, { recursive: true });
      await page.screenshot({ path: new URL("payment-page-ru.png", ARTIFACTS).pathname, fullPage: true });
      await page.setViewportSize({ width: 1024, height: 760 });
      await page.screenshot({
        path: new URL("payment-page-ru-wide.png", ARTIFACTS).pathname,
        fullPage: true,
      });
      await page.setViewportSize({ width: 390, height: 760 });
      await page.getByRole("button", { name: "Оплатить картой" }).click();
      await page.waitForURL(/\/sandbox\/checkout\/pay_[0-9a-f]{32}$/);
      await expect(page.locator("strong").first().textContent()).resolves.toBe("ТЕСТ");
      await page.getByRole("button", { name: "Оплатить", exact: true }).click();
      await page.waitForURL(new RegExp(`${new URL(invoice.paymentUrl).pathname}/return\\?payment=`));
      await expect(page.locator(".notice.ok").textContent()).resolves.toBe("Оплачено. Спасибо!");
      await page.screenshot({ path: new URL("payment-receipt-ru.png", ARTIFACTS).pathname, fullPage: true });
      await page.getByRole("link", { name: "Вернуться на сайт Кофейня «Зерно»" }).click();
      await page.waitForURL(`${receiver.url}/return?order=44`);
      expect(violations).toEqual([]);
    } finally {
      await context.close();
      await server.close();
      await receiver.close();
      await rm(userDataDir, { recursive: true, force: true });
    }
  },
  60_000,
);
