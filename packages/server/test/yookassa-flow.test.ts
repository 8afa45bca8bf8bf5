import { EMULATOR_DECLINE_CARDS, EMULATOR_SUCCESS_CARD } from "@kopek/provider-yookassa/emulator";
import { afterAll, describe, expect, it } from "vitest";
import { openServerTestDatabase } from "./postgres-database.js";
import { emulatorPaymentIdOf, type Json, startYooKassaServer, until } from "./yookassa-fixture.js";

// The reference server paying through @kopek/provider-yookassa against the YooKassa emulator, over real
// HTTP everywhere (issue 15, API.md 10.3–10.4): the page's form, the emulator's checkout, its
// notification to /provider-events/{projectId}/yookassa, the payer's return, reconciliation.

const DECLINE_CARD = Object.keys(EMULATOR_DECLINE_CARDS)[0] ?? ""; // insufficient_funds

const pg = await openServerTestDatabase();
afterAll(() => pg.db.close());

const storages = [
  { name: "memory", storage: () => undefined },
  { name: `PostgreSQL (${pg.db.backend})`, storage: () => pg.storage },
];

describe.each(storages)("YooKassa through the server on $name", ({ storage }) => {
  it("pays an invoice by card: page form → 303 to the emulator → pay → notification → paid, one invoice.paid", async () => {
    const s = await startYooKassaServer({ storage: storage() });
    try {
      const invoice = await s.createInvoice();
      const chosen = await s.choose(invoice.id, "card");
      expect(chosen.status).toBe(303);
      expect(chosen.location).toMatch(new RegExp(`^${s.emulator.url}/checkout/[0-9a-f-]{36}$`));
      const providerPaymentId = emulatorPaymentIdOf(chosen.location);
      const created = s.emulator.books.payments.get(providerPaymentId) as Json;
      expect(created).toMatchObject({
        status: "pending",
        amount: { value: "1499.00", currency: "RUB" },
        payment_method: { type: "bank_card" },
        confirmation: { type: "redirect" },
      });
      expect(created.confirmation.return_url).toMatch(
        new RegExp(`^${s.url}/pay/${s.project.id}/${invoice.id}/return\\?payment=`),
      );
      // Nothing settled yet: the page itself never pays (10.1).
      expect((await s.get(`/v1/invoices/${invoice.id}`)).status).toBe("created");

      // The payer pays at the emulator and does NOT come back: the notification alone settles it.
      const back = await s.decide(chosen.location, { card: EMULATOR_SUCCESS_CARD });
      expect(back).toBe(created.confirmation.return_url);
      await s.emulator.deliveries();
      expect(s.emulator.notifications.map((n) => n.event)).toEqual(["payment.succeeded"]);
      expect(await until(async () => (await s.get(`/v1/invoices/${invoice.id}`)).status === "paid")).toBe(
        true,
      );
      const paid = await s.get(`/v1/invoices/${invoice.id}`);
      expect(paid).toMatchObject({ status: "paid", method: "card" });

      const payments = (await s.get(`/v1/payments?invoiceId=${invoice.id}`)).data as Json[];
      expect(payments).toHaveLength(1);
      expect(payments[0]).toMatchObject({
        status: "succeeded",
        method: "card",
        methodMask: "5555 55** **** 4477",
        provider: "yookassa",
        providerPaymentId,
        invoiceId: invoice.id,
        amount: { amount: "149900", currency: "RUB" },
        failureCode: null,
      });

      // Coming back afterwards shows the outcome and the way back to the shop, and changes nothing.
      const returned = await fetch(back);
      expect(returned.status).toBe(200);
      const html = await returned.text();
      expect(html).toContain("Paid");
      expect(html).toContain(`${s.receiver.url}/return?order=42`);

      expect(await until(() => s.receiver.received.length > 0)).toBe(true);
      await new Promise((r) => setTimeout(r, 200)); // a second one would arrive now
      expect(s.hookTypes()).toEqual(["invoice.paid"]);
      // One POST /payments at the emulator, with an Idempotence-Key; the rest are GETs.
      const posts = s.emulator.requests.filter((r) => r.method === "POST");
      expect(posts).toHaveLength(1);
      expect(posts[0]?.idempotenceKey).toBeTruthy();
    } finally {
      await s.close();
    }
  }, 10_000);

  it("a card declined at the emulator, then paid again: two attempts (canceled, succeeded), one invoice.paid", async () => {
    const s = await startYooKassaServer({ storage: storage() });
    try {
      const invoice = await s.createInvoice();
      const first = await s.choose(invoice.id, "card");
      expect(first.status).toBe(303);
      const back = await s.decide(first.location, { card: DECLINE_CARD });
      // The payer comes back: Kopek asks the emulator and shows the decline.
      const returned = await fetch(back);
      expect(returned.status).toBe(200);
      const html = await returned.text();
      expect(html).toMatch(/role="alert"[^>]*>[^<]*declined/i);
      expect((await s.get(`/v1/invoices/${invoice.id}`)).status).toBe("created");

      const second = await s.choose(invoice.id, "card");
      expect(second.status).toBe(303);
      expect(second.location).not.toBe(first.location); // a new attempt, a new provider payment
      const backAgain = await s.decide(second.location, { card: EMULATOR_SUCCESS_CARD });
      expect(await (await fetch(backAgain)).text()).toContain("Paid");
      expect((await s.get(`/v1/invoices/${invoice.id}`)).status).toBe("paid");

      const payments = (await s.get(`/v1/payments?invoiceId=${invoice.id}`)).data as Json[];
      expect(payments.map((p) => [p.status, p.failureCode, p.providerPaymentId])).toEqual([
        ["succeeded", null, emulatorPaymentIdOf(second.location)],
        ["canceled", "payment_declined", emulatorPaymentIdOf(first.location)],
      ]);
      await s.emulator.deliveries();
      expect(await until(() => s.receiver.received.length >= 2)).toBe(true);
      await new Promise((r) => setTimeout(r, 200));
      expect(s.hookTypes()).toEqual(["invoice.paid", "payment.canceled"]);
    } finally {
      await s.close();
    }
  }, 10_000);
  it("a forged notification changes nothing; a genuine one replayed changes nothing twice", async () => {
    const s = await startYooKassaServer({ storage: storage(), notify: false });
    try {
      const invoice = await s.createInvoice();
      const chosen = await s.choose(invoice.id, "card");
      const providerPaymentId = emulatorPaymentIdOf(chosen.location);
      const notify = (body: unknown) =>
        fetch(s.notificationUrl, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(body),
        });
      // A body claiming success for a payment the emulator still has pending: Kopek asks the API.
      const forged = {
        type: "notification",
        event: "payment.succeeded",
        object: {
          id: providerPaymentId,
          status: "succeeded",
          paid: true,
          amount: { value: "1499.00", currency: "RUB" },
          payment_method: { type: "bank_card", id: providerPaymentId, saved: false },
        },
      };
      const answer = await notify(forged);
      expect(answer.status).toBe(200);
      expect(await answer.text()).toBe("");
      expect(s.emulator.requests.filter((r) => r.method === "GET").map((r) => r.path)).toEqual([
        `/v3/payments/${providerPaymentId}`,
      ]);
      expect((await s.get(`/v1/invoices/${invoice.id}`)).status).toBe("created");
      // A forged body about a payment Kopek never made: refused, nothing changed.
      const unknown = await notify({ ...forged, object: { ...forged.object, id: crypto.randomUUID() } });
      expect(unknown.status).toBe(404);
      const payments = (await s.get(`/v1/payments?invoiceId=${invoice.id}`)).data as Json[];
      expect(payments.map((p) => p.status)).toEqual(["pending"]);

      // Now the payer really pays; the genuine notification is delivered, then replayed twice.
      s.emulator.notifyTo(s.notificationUrl);
      await s.decide(chosen.location, { card: EMULATOR_SUCCESS_CARD });
      await s.emulator.deliveries();
      const genuine = s.emulator.notifications.at(-1);
      expect(genuine?.event).toBe("payment.succeeded");
      const paid = await s.get(`/v1/invoices/${invoice.id}`);
      expect(paid.status).toBe("paid");
      for (let i = 0; i < 2; i += 1) {
        const replay = await notify({ type: "notification", event: genuine?.event, object: genuine?.object });
        expect(replay.status).toBe(200);
      }
      expect(await s.get(`/v1/invoices/${invoice.id}`)).toEqual(paid);
      const after = (await s.get(`/v1/payments?invoiceId=${invoice.id}`)).data as Json[];
      expect(after.map((p) => p.status)).toEqual(["succeeded"]);
      expect(s.emulator.requests.filter((r) => r.method === "POST")).toHaveLength(1); // no refund, no 2nd payment
      expect(await until(() => s.receiver.received.length > 0)).toBe(true);
      await new Promise((r) => setTimeout(r, 200));
      expect(s.hookTypes()).toEqual(["invoice.paid"]);
    } finally {
      await s.close();
    }
  }, 10_000);

  it("a lost notification: paid at the emulator, nobody told; the reconciler settles it a minute on", async () => {
    const s = await startYooKassaServer({ storage: storage(), notify: false });
    try {
      const invoice = await s.createInvoice();
      const chosen = await s.choose(invoice.id, "card");
      await s.decide(chosen.location, { card: EMULATOR_SUCCESS_CARD }); // the payer never comes back
      expect(s.emulator.notifications).toEqual([]);
      await new Promise((r) => setTimeout(r, 200)); // the reconciler runs every 20 ms: too early to ask
      expect((await s.get(`/v1/invoices/${invoice.id}`)).status).toBe("created");
      expect(s.emulator.requests.filter((r) => r.method === "GET")).toEqual([]);

      s.time.shift(61_000); // the server's clock, a minute on
      expect(await until(async () => (await s.get(`/v1/invoices/${invoice.id}`)).status === "paid")).toBe(
        true,
      );
      const payments = (await s.get(`/v1/payments?invoiceId=${invoice.id}`)).data as Json[];
      expect(payments).toMatchObject([
        {
          status: "succeeded",
          methodMask: "5555 55** **** 4477",
          providerPaymentId: emulatorPaymentIdOf(chosen.location),
        },
      ]);
      expect(await until(() => s.receiver.received.length > 0)).toBe(true);
      await new Promise((r) => setTimeout(r, 200));
      expect(s.hookTypes()).toEqual(["invoice.paid"]);
      expect(s.emulator.requests.filter((r) => r.method === "POST")).toHaveLength(1);
    } finally {
      await s.close();
    }
  }, 10_000);
});
