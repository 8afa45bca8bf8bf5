import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, it } from "vitest";
import { CHROMIUM, launchChromium } from "./chromium.js";
import { uniqueMethodRef } from "./helper.js";
import { a11yFindings, axeSeriousFindings } from "./page-a11y.js";
import { startPayServer } from "./pay-fixture.js";

const SELLER = {
  legalName: "ООО «Зерно»",
  inn: "7707083893",
  email: "shop@zerno.example",
  phone: "+79991234567",
  offerUrl: "https://zerno.example/offer",
  privacyUrl: "https://zerno.example/privacy",
};

const ARTIFACTS = new URL("../../../test-artifacts/", import.meta.url);

for (const [locale, lang, save, check] of [
  ["en-US", "en", "Save a card", "a payment of RUB 1.00 is made and refunded at once"],
  ["ru-RU", "ru", "Сохранить карту", "Для проверки спишем 1,00 ₽ и сразу вернём."],
] as const) {
  it.runIf(existsSync(CHROMIUM))(
    `${lang}: the method-update page (API.md 11.5) says what it costs and is accessible (contrast, names, no script), phone and wide screenshots`,
    async () => {
      const server = await startPayServer("http://127.0.0.1:9/hooks");
      // The seller block in the screenshots and under axe's eyes too.
      (await server.storage.saveProject({ ...server.project, seller: SELLER }))._unsafeUnwrap();
      const userDataDir = await mkdtemp(join(tmpdir(), "kopek-chromium-"));
      const context = await launchChromium(userDataDir, locale);
      try {
        const created = await server.post("/v1/subscriptions", {
          amount: { amount: "149900", currency: "RUB" },
          period: { unit: "month", count: 3 },
          method: "card",
          providerMethodRef: uniqueMethodRef("sandbox_ok"),
          description: "Coffee every quarter",
        });
        const subscription = (await created.json()) as { id: string };
        const made = await server.post(`/v1/subscriptions/${subscription.id}/method-update`, {});
        const link = (await made.json()) as { url: string };
        const page = await context.newPage();
        await page.goto(link.url);
        expect(await a11yFindings(page)).toEqual({ lowContrast: [], unnamed: [], scripts: 0, lang });
        expect(await axeSeriousFindings(page)).toEqual([]);
        await expect(page.getByRole("button", { name: save }).count()).resolves.toBe(1);
        // Money is formatted with no-break spaces: read as plain spaces.
        const text = ((await page.locator("main").textContent()) ?? "").replace(/\s/g, " ");
        expect(text).toContain(check);
        expect(text).toContain(lang === "ru" ? "раз в 3 месяца" : "every 3 months");
        await mkdir(ARTIFACTS, { recursive: true });
        await page.setViewportSize({ width: 375, height: 760 });
        await page.screenshot({
          path: new URL(`method-page-${lang}-phone.png`, ARTIFACTS).pathname,
          fullPage: true,
        });
        await page.setViewportSize({ width: 1280, height: 800 });
        await page.screenshot({
          path: new URL(`method-page-${lang}-wide.png`, ARTIFACTS).pathname,
          fullPage: true,
        });
      } finally {
        await context.close();
        await server.close();
        await rm(userDataDir, { recursive: true, force: true });
      }
    },
    30_000,
  );
}
