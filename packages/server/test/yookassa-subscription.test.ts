import { randomUUID } from "node:crypto";
import { EMULATOR_SUCCESS_CARD } from "@kopek/provider-yookassa/emulator";
import { afterAll, describe, expect, it } from "vitest";
import { openServerTestDatabase } from "./postgres-database.js";
import { type Json, startYooKassaServer, type YooKassaServer } from "./yookassa-fixture.js";

// A subscription on a card saved at YooKassa (API.md 10.5), through the reference server and the
// emulator: cycle 1 charged with payment_method_id at creation, cycle 2 by the renewal worker.

const pg = await openServerTestDatabase();
afterAll(() => pg.db.close());

const DAY_MS = 86_400_000;

/**
 * A merchant's earlier checkout, straight at the emulator: a payment with save_payment_method, paid by
 * the payer on the checkout page. The saved method's id is its own (YooKassa: payment_method.id), not the
 * payment's: the subscription is made with that id.
 */
async function savedCardAtEmulator(s: YooKassaServer): Promise<string> {
  const auth = Buffer.from(`${s.emulator.shopId}:${s.emulator.secretKey}`).toString("base64");
  const created = await fetch(`${s.emulator.apiUrl}/payments`, {
    method: "POST",
    headers: {
      authorization: `Basic ${auth}`,
      "idempotence-key": randomUUID(),
      "content-type": "application/json",
    },
    body: JSON.stringify({
      amount: { value: "1.00", currency: "RUB" },
      capture: true,
      confirmation: { type: "redirect", return_url: `${s.receiver.url}/return` },
      payment_method_data: { type: "bank_card" },
      save_payment_method: true,
      description: "Card binding",
    }),
  });
  expect(created.status).toBe(200);
  const payment = (await created.json()) as Json;
  await s.decide(payment.confirmation.confirmation_url, { card: EMULATOR_SUCCESS_CARD });
  const method = s.emulator.books.payments.get(payment.id)?.payment_method as Json;
  expect(method).toMatchObject({ saved: true, status: "active", card: { last4: "4477" } });
  expect(method.id).not.toBe(payment.id);
  return method.id as string;
}

/** A monthly subscription on the saved method `ref`, created active with cycle 1 charged. */
async function subscribeMonthly(s: YooKassaServer, ref: string): Promise<Json> {
  const created = await s.post("/v1/subscriptions", {
    amount: { amount: "149900", currency: "RUB" },
    period: { unit: "month", count: 1 },
    method: "card",
    providerMethodRef: ref,
  });
  const subscription = (await created.json()) as Json;
  expect(created.status).toBe(201);
  expect(subscription).toMatchObject({ status: "active", cyclesStarted: 1 });
  return subscription;
}

/** The emulator's payments made by charging the saved method `ref` (no confirmation, its method's id). */
const chargesOf = (s: YooKassaServer, ref: string) =>
  [...s.emulator.books.payments.values()].filter(
    (p) => p.id !== ref && p.confirmation === undefined && (p.payment_method as Json | undefined)?.id === ref,
  );

describe.each([
  { name: "memory", storage: () => undefined },
  { name: `PostgreSQL (${pg.db.backend})`, storage: () => pg.storage },
])("a YooKassa saved-card subscription on $name", ({ storage }) => {
  it("is created active with cycle 1 charged by payment_method_id, and renewed as cycle 2 by the worker", async () => {
    // Notifications go to the server, which does not know the binding payment: refused, harmless.
    const s = await startYooKassaServer({ storage: storage() });
    try {
      const ref = await savedCardAtEmulator(s);
      // Operations, not requests: under load the adapter may repeat a slow POST with its Idempotence-Key.
      const posted = () =>
        new Set(s.emulator.requests.filter((r) => r.method === "POST").map((r) => r.idempotenceKey)).size;
      const postsBefore = posted();

      const subscription = await subscribeMonthly(s, ref);
      expect(JSON.stringify(subscription)).not.toContain(ref); // the token stays inside Kopek

      const charges = chargesOf(s, ref);
      expect(charges).toHaveLength(1);
      expect(charges[0]).toMatchObject({
        status: "succeeded",
        amount: { value: "1499.00", currency: "RUB" },
      });
      expect(posted()).toBe(postsBefore + 1);

      const cycle1 = (await s.get(`/v1/payments?subscriptionId=${subscription.id}`)).data as Json[];
      expect(cycle1).toHaveLength(1);
      expect(cycle1[0]).toMatchObject({
        status: "succeeded",
        cycle: 1,
        subscriptionId: subscription.id,
        invoiceId: null,
        provider: "yookassa",
        providerPaymentId: charges[0]?.id,
        method: "card",
        methodMask: "5555 55** **** 4477",
      });

      // A month (and a day) on, the renewal worker charges cycle 2 once.
      s.time.shift(32 * DAY_MS);
      expect(await s.renewals.runOnce()).toMatchObject({ claimed: 1, charged: 1, pending: 0 });
      expect(await s.renewals.runOnce()).toMatchObject({ claimed: 0, charged: 0 }); // nothing more is due
      const renewed = await s.get(`/v1/subscriptions/${subscription.id}`);
      expect(renewed).toMatchObject({ status: "active", cyclesStarted: 2 });
      const allCharges = chargesOf(s, ref);
      expect(allCharges).toHaveLength(2);
      const payments = (await s.get(`/v1/payments?subscriptionId=${subscription.id}`)).data as Json[];
      expect(payments.map((p) => [p.cycle, p.status, p.providerPaymentId])).toEqual([
        [2, "succeeded", allCharges[1]?.id],
        [1, "succeeded", allCharges[0]?.id],
      ]);
      // Each charge with its own Idempotence-Key (a repeated request reuses its operation's key).
      expect(posted()).toBe(postsBefore + 2);
    } finally {
      await s.close();
    }
  }, 10_000);

  it("refuses a payment method id YooKassa does not hold (404) with 422 at providerMethodRef, charging nothing", async () => {
    const s = await startYooKassaServer({ storage: storage() });
    try {
      const unknown = randomUUID();
      const created = await s.post("/v1/subscriptions", {
        amount: { amount: "149900", currency: "RUB" },
        period: { unit: "month", count: 1 },
        method: "card",
        providerMethodRef: unknown,
      });
      expect(created.status).toBe(422);
      expect(await created.json()).toMatchObject({
        code: "validation_failed",
        errors: [{ pointer: "#/providerMethodRef", code: "invalid_value" }],
      });
      expect(s.emulator.requests.filter((r) => r.method === "POST")).toEqual([]);
      expect(((await s.get("/v1/subscriptions")).data as Json[]).length).toBe(0);
    } finally {
      await s.close();
    }
  }, 10_000);

  it("settles a renewal at once on payment.succeeded that comes before its charge's answer was recorded", async () => {
    const s = await startYooKassaServer({ storage: storage() });
    try {
      const ref = await savedCardAtEmulator(s);
      const subscription = await subscribeMonthly(s, ref);
      // The renewal's charge is made, but every answer to it is lost (4 tries: maxRetries 3), and the
      // notification is held back until then: it is delivered while the Payment has no provider id.
      await s.emulator.deliveries(); // cycle 1's notification, which asks YooKassa, is not in the way
      s.emulator.notifyTo("http://127.0.0.1:9/held");
      s.time.shift(32 * DAY_MS);
      s.emulator.failNext(4, "500", { afterProcessing: true });
      expect(await s.renewals.runOnce()).toMatchObject({ claimed: 1, unavailable: 1 });
      const [charge] = chargesOf(s, ref).slice(-1);
      expect(charge).toMatchObject({ status: "succeeded", metadata: { kopekPaymentId: expect.any(String) } });
      const pending = (await s.get(`/v1/payments?subscriptionId=${subscription.id}&status=pending`)).data;
      expect(pending).toMatchObject([{ cycle: 2, providerPaymentId: null }]);
      const held = s.emulator.notifications.at(-1);
      expect(held).toMatchObject({ event: "payment.succeeded", object: { id: charge?.id } });

      const delivered = await fetch(s.notificationUrl, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ type: "notification", event: held?.event, object: held?.object }),
      });
      expect(delivered.status).toBe(200);
      await delivered.body?.cancel();
      // Settled at once, on YooKassa's own answer: no wait for the worker's next try.
      const payments = (await s.get(`/v1/payments?subscriptionId=${subscription.id}`)).data as Json[];
      expect(payments[0]).toMatchObject({ cycle: 2, status: "succeeded", providerPaymentId: charge?.id });
      expect(await s.get(`/v1/subscriptions/${subscription.id}`)).toMatchObject({ cyclesStarted: 2 });
      s.time.shift(10 * 60_000);
      expect(await s.renewals.runOnce()).toMatchObject({ claimed: 0 });
      expect(chargesOf(s, ref)).toHaveLength(2);
    } finally {
      await s.close();
    }
  }, 30_000);
});
