import { afterAll, beforeAll, expect, it } from "vitest";
import { uniqueMethodRef } from "./helper.js";
import { startPayServer } from "./pay-fixture.js";

// The method-update page (API.md 11.5) shows Kopek's own description of a subscription (the merchant
// gave none) in the payer's language; the merchant's own as written.
const NBSP = "\u00a0";
let server: Awaited<ReturnType<typeof startPayServer>>;
beforeAll(async () => {
  server = await startPayServer("http://127.0.0.1:9/hooks");
});
afterAll(() => server.close());

async function linkOf(description?: string): Promise<string> {
  const created = await server.post("/v1/subscriptions", {
    amount: { amount: "149900", currency: "RUB" },
    period: { unit: "month", count: 1 },
    method: "card",
    providerMethodRef: uniqueMethodRef("sandbox_ok"),
    ...(description === undefined ? {} : { description }),
  });
  const subscription = (await created.json()) as { id: string; description: string };
  const made = await server.post(`/v1/subscriptions/${subscription.id}/method-update`, {});
  return ((await made.json()) as { url: string }).url;
}

const pageIn = async (url: string, language: string) =>
  (await fetch(url, { headers: { "accept-language": language } })).text();

it("a subscription without a description: its charge in the payer's words, the merchant's text as written", async () => {
  const generated = await linkOf();
  expect(await pageIn(generated, "ru")).toContain(
    `<p class="description">1${NBSP}499,00${NBSP}₽ раз в месяц</p>`,
  );
  expect(await pageIn(generated, "en")).toContain(
    `<p class="description">RUB${NBSP}1,499.00 every month</p>`,
  );
  const given = await linkOf("Кофе каждый месяц");
  expect(await pageIn(given, "en")).toContain('<p class="description">Кофе каждый месяц</p>');
});
