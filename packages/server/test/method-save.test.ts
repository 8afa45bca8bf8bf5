import type { Storage } from "@kopek/core";
import { EMULATOR_SUCCESS_CARD as TBANK_CARD } from "@kopek/provider-tbank/emulator";
import { EMULATOR_SUCCESS_CARD as YOOKASSA_CARD } from "@kopek/provider-yookassa/emulator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tokenOf } from "./method-page.js";
import { SERVER_STORAGES } from "./postgres-database.js";
import { type Json, until } from "./provider-server.js";
import { startTBankServer } from "./tbank-fixture.js";
import { startYooKassaServer } from "./yookassa-fixture.js";

// API.md 11.5 with a provider that saves a card with no payment (the project's saveWithoutPayment), over
// real HTTP on the built app, on memory storage and on PostgreSQL: the payer's form post, the provider's
// save page, the way back (YooKassa: the save's return_url; T-Bank: the terminal's fixed page, Kopek's
// /method/return, which the payer's cookie leads on), and a payer who never comes back.

const EN = { "accept-language": "en" };

/** The payer at `url`'s form: chooses a card. The 303's Location and the cookie it set. */
async function chooseCard(url: string) {
  const chosen = await fetch(url, {
    method: "POST",
    redirect: "manual",
    headers: { ...EN, origin: new URL(url).origin, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ token: await tokenOf(url), method: "card" }).toString(),
  });
  await chosen.body?.cancel();
  expect(chosen.status).toBe(303);
  const cookie = (chosen.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
  return {
    location: chosen.headers.get("location") ?? "",
    cookie,
    setCookie: chosen.headers.get("set-cookie"),
  };
}

/** The payer submits the provider's save form at `url` (as a browser posts it); the 303's Location. */
async function saveAt(url: string, outcome: "save" | "decline", card: string): Promise<string> {
  const form = new URLSearchParams({ outcome, card });
  const saved = await fetch(url, { method: "POST", redirect: "manual", body: form });
  await saved.body?.cancel();
  expect(saved.status).toBe(303);
  return saved.headers.get("location") ?? "";
}

const subscriptionOn = async (
  s: { post: (path: string, body: unknown) => Promise<Response> },
  ref: string,
) => {
  const created = await s.post("/v1/subscriptions", {
    amount: { amount: "149900", currency: "RUB" },
    period: { unit: "month", count: 1 },
    method: "card",
    providerMethodRef: ref,
  });
  expect(created.status).toBe(201);
  const subscription = (await created.json()) as Json;
  const link = (await (
    await s.post(`/v1/subscriptions/${subscription.id}/method-update`, {})
  ).json()) as Json;
  return { subscription, link: String(link.url) };
};

describe.each(SERVER_STORAGES)("a card saved with no payment (API.md 11.5) on %s", (_name, open) => {
  let storage: Storage;
  let closeStorage: () => Promise<void>;
  beforeAll(async () => {
    const opened = await open();
    storage = opened.storage;
    closeStorage = opened.close;
  });
  afterAll(async () => {
    await closeStorage();
  });

  it("YooKassa: the payer saves at the provider and comes back to a saved method; nothing charged", async () => {
    const s = await startYooKassaServer({ storage, saveWithoutPayment: true });
    try {
      const { subscription, link } = await subscriptionOn(s, s.emulator.books.seedSavedMethod());
      const paymentsBefore = s.emulator.books.payments.size;
      const page = await (await fetch(link, { headers: EN })).text();
      expect(page).toContain("Saving a card charges nothing.");
      expect(page).not.toContain("refunded at once");
      const { location } = await chooseCard(link);
      expect(location).toMatch(new RegExp(`^${s.emulator.url}/checkout/payment-methods/`));
      const back = await saveAt(location, "save", YOOKASSA_CARD);
      expect(back).toMatch(new RegExp(`^${link}/return\\?save=[0-9a-f-]{36}$`));
      const returned = await fetch(back, { headers: EN });
      expect(returned.status).toBe(200);
      expect(await returned.text()).toContain("Your new payment method is saved");
      const now = await s.get(`/v1/subscriptions/${subscription.id}`);
      expect(now.methodMask).toMatch(/^5555 55\*\* \*\*\*\* 4477$/);
      // The method YooKassa saved with no payment is the subscription's now.
      const saved = [...s.emulator.methodSaves.saves.values()].find((m) => m.status === "active");
      const stored = (await storage.findSubscription(s.project.id, String(subscription.id)))._unsafeUnwrap();
      expect(stored?.providerMethodRef).toBe(saved?.id);
      expect(s.emulator.books.payments.size).toBe(paymentsBefore);
      // The first cycle's charge alone: no check.
      const payments = (await s.get(`/v1/payments?subscriptionId=${subscription.id}`)).data as Json[];
      expect(payments.map((p) => p.kind)).toEqual(["cycle"]);
    } finally {
      await s.close();
    }
  });

  it("T-Bank: the terminal's fixed page leads back through /method/return, by the payer's cookie only", async () => {
    const s = await startTBankServer({ storage, saveWithoutPayment: true });
    try {
      const { subscription, link } = await subscriptionOn(s, s.emulator.books.seedSavedCard());
      const { location, cookie, setCookie } = await chooseCard(link);
      expect(setCookie).toMatch(
        /^kopek_method_save=[0-9a-f.-]+; Path=\/method; Max-Age=86400; HttpOnly; SameSite=Lax$/,
      );
      expect(location).toMatch(new RegExp(`^${s.emulator.url}/addcard/[0-9a-f-]{36}$`));
      const fixed = await saveAt(location, "save", TBANK_CARD);
      expect(fixed).toBe(`${s.url}/method/return`);
      // Another browser (no cookie), or a cookie Kopek did not write: a thank-you page, nothing else.
      for (const headers of [EN, { ...EN, cookie: "kopek_method_save=../../etc" }]) {
        const elsewhere = await fetch(fixed, { headers, redirect: "manual" });
        expect(elsewhere.status).toBe(200);
        expect(await elsewhere.text()).toContain("you can close this page");
      }
      const led = await fetch(fixed, { headers: { ...EN, cookie }, redirect: "manual" });
      await led.body?.cancel();
      expect(led.status).toBe(303);
      const back = led.headers.get("location") ?? "";
      expect(back).toMatch(new RegExp(`^${link}/return\\?save=[0-9a-f-]{36}$`));
      expect(await (await fetch(back, { headers: EN })).text()).toContain("Your new payment method is saved");
      const now = await s.get(`/v1/subscriptions/${subscription.id}`);
      expect(now.methodMask).toMatch(/^4300 00\*\* \*\*\*\* 0777$/);
      expect(await until(() => s.hookTypes().includes("subscription.method_updated"))).toBe(true);
    } finally {
      await s.close();
    }
  });

  it("T-Bank: a payer who never comes back loses nothing; a declined card changes nothing", async () => {
    const s = await startTBankServer({ storage, saveWithoutPayment: true });
    try {
      const { subscription, link } = await subscriptionOn(s, s.emulator.books.seedSavedCard());
      const declined = await chooseCard(link);
      expect(await saveAt(declined.location, "decline", TBANK_CARD)).toBe(`${s.url}/method/return`);
      const again = await chooseCard(link);
      await saveAt(again.location, "save", TBANK_CARD);
      // The payer closed the browser. Half a minute on, reconciliation asks T-Bank (GetAddCardState).
      const before = (await storage.findSubscription(s.project.id, String(subscription.id)))._unsafeUnwrap();
      s.time.shift(60_000);
      expect(await until(() => s.hookTypes().includes("subscription.method_updated"))).toBe(true);
      const stored = (await storage.findSubscription(s.project.id, String(subscription.id)))._unsafeUnwrap();
      expect(stored?.methodUpdate?.saves.map((save) => save.state)).toEqual(["failed", "saved"]);
      expect(stored?.providerMethodRef).not.toBe(before?.providerMethodRef);
      const bound = [...s.emulator.cardBindings.bindings.values()].find((b) => b.Status === "COMPLETED");
      expect(stored?.providerMethodRef).toBe(`${bound?.CustomerKey}:${bound?.RebillId}`);
      expect(s.hookTypes().filter((type) => type === "subscription.method_updated")).toHaveLength(1);
    } finally {
      await s.close();
    }
  });
});
