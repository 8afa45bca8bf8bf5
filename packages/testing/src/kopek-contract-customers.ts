import { describe, expect, it } from "vitest";
import { events } from "./harness-reads.js";
import {
  createHarness,
  invoiceBody,
  json,
  type KopekContractOptions,
  type KopekHarness,
  payThroughProvider,
  subscriptionBody,
} from "./kopek-harness.js";

const ID = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

async function customer(h: KopekHarness, body: Record<string, unknown>) {
  const answer = await h.call("/v1/customers", body);
  expect(answer.status).toBe(201);
  return json(answer);
}

/** API.md 11.1: customers, made, read, listed and changed through `kopek.handle`. */
export function registerCustomerTests(options: KopekContractOptions): void {
  describe("customers", () => {
    it("creates a customer: 201 with every field, null when absent; GET answers the same; customer.created", async () => {
      const h = await createHarness(options);
      const answer = await h.call("/v1/customers", { email: "payer@example.com", metadata: { plan: "pro" } });
      expect(answer.status).toBe(201);
      const body = json(answer);
      expect(body).toEqual({
        id: expect.stringMatching(ID),
        email: "payer@example.com",
        phone: null,
        name: null,
        externalId: null,
        metadata: { plan: "pro" },
        createdAt: h.clock.now().toISOString(),
        erasedAt: null,
      });
      expect(answer.headers.location).toBe(`/v1/customers/${body.id}`);
      expect(json(await h.get(`/v1/customers/${body.id}`))).toEqual(body);
      expect(await events(h)).toEqual([{ type: "customer.created", data: body }]);
    });

    it("stores a name of any storable text exactly, and refuses NUL as in every body", async () => {
      const h = await createHarness(options);
      const name = "Zoë 李 😀 O'Brien \u200d";
      const made = await customer(h, { phone: "+79991234567", name });
      expect(made.name).toBe(name);
      expect(json(await h.get(`/v1/customers/${made.id}`)).name).toBe(name);
      const nul = await h.call("/v1/customers", { phone: "+79991234567", name: "a\u0000b" });
      expect(nul.status).toBe(422);
      expect(json(nul).errors).toEqual([expect.objectContaining({ pointer: "#/name" })]);
    });

    it("refuses a body without email, phone or externalId, unknown fields and bad values, all at once", async () => {
      const h = await createHarness(options);
      const empty = await h.call("/v1/customers", { name: "Only a name" });
      expect(empty.status).toBe(422);
      expect(json(empty).errors).toEqual([expect.objectContaining({ pointer: "#", code: "required" })]);
      const bad = await h.call("/v1/customers", {
        email: "not an email",
        phone: "8999",
        externalId: "",
        name: "x".repeat(256),
        nickname: "x",
      });
      expect(bad.status).toBe(422);
      const pointers = (json(bad).errors as { pointer: string }[]).map((e) => e.pointer).sort();
      expect(pointers).toEqual(["#/email", "#/externalId", "#/name", "#/nickname", "#/phone"]);
      expect(json(await h.get("/v1/customers")).data).toEqual([]);
    });

    it("externalId is unique per project: 409 customer_exists naming the existing customer; another project may use it", async () => {
      const h = await createHarness(options);
      const first = await customer(h, { externalId: "user-42", email: "a@example.com" });
      const second = await h.call("/v1/customers", { externalId: "user-42", email: "b@example.com" });
      expect(second.status).toBe(409);
      expect(json(second)).toMatchObject({ code: "customer_exists" });
      expect(json(second).detail).toContain(String(first.id));
      const other = await createHarness({ ...options, createStorage: async () => h.storage });
      expect((await other.call("/v1/customers", { externalId: "user-42" })).status).toBe(201);
      // A change to a taken externalId is refused the same way.
      const third = await customer(h, { externalId: "user-43" });
      const taken = await h.call(`/v1/customers/${third.id}`, { externalId: "user-42" });
      expect(taken.status).toBe(409);
      expect(json(taken).detail).toContain(String(first.id));
      // Only the first of this project holds it.
      const listed = json(await h.get("/v1/customers", { externalId: "user-42" }));
      expect((listed.data as { id: string }[]).map((c) => c.id)).toEqual([first.id]);
    });

    it("the same key answers the same customer; a 409 is not stored (API.md 3)", async () => {
      const h = await createHarness(options);
      const first = await h.call("/v1/customers", { externalId: "k-1" }, "same-key");
      const again = await h.call("/v1/customers", { externalId: "k-1" }, "same-key");
      expect(again.status).toBe(200);
      expect(again.body).toBe(first.body);
      expect(json(await h.get("/v1/customers")).data).toHaveLength(1);
      expect((await events(h)).length).toBe(1);
    });

    it("lists newest first, by externalId and email exactly, paged; refuses unknown and malformed parameters", async () => {
      const h = await createHarness(options);
      const a = await customer(h, { email: "same@example.com" });
      h.clock.advance(1);
      const b = await customer(h, { email: "same@example.com", externalId: "b" });
      h.clock.advance(1);
      const c = await customer(h, { email: "other@example.com" });
      const ids = (body: Record<string, unknown>) => (body.data as { id: string }[]).map((x) => x.id);
      expect(ids(json(await h.get("/v1/customers")))).toEqual([c.id, b.id, a.id]);
      expect(ids(json(await h.get("/v1/customers", { email: "same@example.com" })))).toEqual([b.id, a.id]);
      expect(ids(json(await h.get("/v1/customers", { email: "SAME@example.com" })))).toEqual([]);
      expect(ids(json(await h.get("/v1/customers", { externalId: "b" })))).toEqual([b.id]);
      const page = json(await h.get("/v1/customers", { limit: "2" }));
      expect(ids(page)).toEqual([c.id, b.id]);
      const rest = json(await h.get("/v1/customers", { limit: "2", cursor: String(page.nextCursor) }));
      expect([ids(rest), rest.nextCursor]).toEqual([[a.id], null]);
      const refused = await h.get("/v1/customers", { status: "x", email: "" });
      expect(refused.status).toBe(422);
      const pointers = (json(refused).errors as { pointer: string }[]).map((e) => e.pointer).sort();
      expect(pointers).toEqual(["#/email", "#/status"]);
    });

    it("updates the fields sent (null clears one), customer.updated; keeps an email, phone or externalId", async () => {
      const h = await createHarness(options);
      const made = await customer(h, { email: "a@example.com", name: "A" });
      const path = `/v1/customers/${made.id}`;
      const changed = await h.call(path, { phone: "+79990000000", name: null, metadata: { k: "v" } });
      expect(changed.status).toBe(200);
      const body = json(changed);
      expect(body).toEqual({ ...made, phone: "+79990000000", name: null, metadata: { k: "v" } });
      expect(json(await h.get(path))).toEqual(body);
      expect((await events(h)).map((e) => e.type)).toEqual(["customer.created", "customer.updated"]);
      expect((await events(h)).at(-1)?.data).toEqual(body);
      const emptied = await h.call(path, { email: null, phone: null });
      expect(emptied.status).toBe(422);
      expect(json(await h.get(path))).toEqual(body);
      expect((await h.call(path, {})).status).toBe(422);
      // Nothing changed: no write, no event.
      expect((await h.call(path, { name: null })).status).toBe(200);
      expect((await events(h)).length).toBe(2);
    });

    it("another project's customer is not found, for GET and for a change", async () => {
      const h = await createHarness(options);
      const made = await customer(h, { email: "a@example.com" });
      const other = await createHarness({ ...options, createStorage: async () => h.storage });
      expect((await other.get(`/v1/customers/${made.id}`)).status).toBe(404);
      expect((await other.call(`/v1/customers/${made.id}`, { name: "Mallory" })).status).toBe(404);
      expect(json(await other.get("/v1/customers")).data).toEqual([]);
      expect(json(await h.get(`/v1/customers/${made.id}`))).toEqual(made);
    });

    it("subscriptions and invoices take this project's customerId; their payments carry it; lists filter by it", async () => {
      const h = await createHarness(options, { paymentPage: "kopek" });
      const made = await customer(h, { email: "a@example.com" });
      const other = await customer(h, { email: "b@example.com" });
      const subscribed = await h.call("/v1/subscriptions", { ...subscriptionBody(), customerId: made.id });
      expect(subscribed.status).toBe(201);
      const subscription = json(subscribed);
      expect(subscription.customerId).toBe(made.id);
      expect(json(await h.get(`/v1/subscriptions/${subscription.id}`)).customerId).toBe(made.id);
      const invoiced = await h.call("/v1/invoices", { ...invoiceBody(), customerId: made.id });
      expect(invoiced.status).toBe(201);
      const invoice = json(invoiced);
      expect([invoice.customerId, invoice.customer]).toEqual([made.id, null]);
      await payThroughProvider(h, String(invoice.id), "card");
      const plain = json(await h.call("/v1/invoices", invoiceBody()));
      expect(plain.customerId).toBeNull();
      await h.call("/v1/subscriptions", subscriptionBody());

      const ids = (body: Record<string, unknown>) => (body.data as { id: string }[]).map((x) => x.id);
      const payments = json(await h.get("/v1/payments", { customerId: String(made.id) }));
      expect((payments.data as { customerId: string }[]).map((p) => p.customerId)).toEqual([
        made.id,
        made.id,
      ]);
      expect(
        (payments.data as { invoiceId: string | null; subscriptionId: string | null }[])
          .map((p) => p.invoiceId ?? p.subscriptionId)
          .sort(),
      ).toEqual([invoice.id, subscription.id].sort());
      expect(ids(json(await h.get("/v1/subscriptions", { customerId: String(made.id) })))).toEqual([
        subscription.id,
      ]);
      expect(ids(json(await h.get("/v1/invoices", { customerId: String(made.id) })))).toEqual([invoice.id]);
      expect(ids(json(await h.get("/v1/invoices", { customerId: String(made.id), status: "paid" })))).toEqual(
        [invoice.id],
      );
      expect(
        ids(json(await h.get("/v1/invoices", { customerId: String(made.id), status: "created" }))),
      ).toEqual([]);
      for (const list of ["/v1/subscriptions", "/v1/invoices", "/v1/payments"]) {
        expect(json(await h.get(list, { customerId: String(other.id) })).data).toEqual([]);
        const refused = await h.get(list, { customerId: "not-a-uuid" });
        expect(refused.status).toBe(422);
        expect(json(refused).errors).toEqual([expect.objectContaining({ pointer: "#/customerId" })]);
      }
    });

    it("422 customer_not_found for an unknown customerId or another project's, before any charge", async () => {
      const h = await createHarness(options);
      const other = await createHarness({ ...options, createStorage: async () => h.storage });
      const theirs = await customer(other, { email: "theirs@example.com" });
      for (const customerId of [String(theirs.id), "0192f3c4-5d6e-7f80-9a1b-2c3d4e5f6a7b"]) {
        const subscribed = await h.call("/v1/subscriptions", { ...subscriptionBody(), customerId });
        expect(subscribed.status).toBe(422);
        expect(json(subscribed).code).toBe("customer_not_found");
        const invoiced = await h.call("/v1/invoices", { ...invoiceBody(), customerId });
        expect(invoiced.status).toBe(422);
        expect(json(invoiced).code).toBe("customer_not_found");
      }
      expect(h.chargeCalls()).toBe(0);
      expect(h.linkCalls()).toBe(0);
      expect(json(await h.get("/v1/subscriptions")).data).toEqual([]);
      expect(json(await h.get("/v1/invoices")).data).toEqual([]);
    });

    it("422 mutually_exclusive: customerId with customer on an invoice, with invoiceId on a subscription", async () => {
      const h = await createHarness(options);
      const made = await customer(h, { email: "a@example.com" });
      const invoiced = await h.call("/v1/invoices", {
        ...invoiceBody(),
        customerId: made.id,
        customer: { email: "a@example.com" },
      });
      expect(invoiced.status).toBe(422);
      expect(json(invoiced).errors).toEqual([
        expect.objectContaining({ pointer: "#/customerId", code: "mutually_exclusive" }),
      ]);
      const subscribed = await h.call("/v1/subscriptions", {
        amount: { amount: "149900", currency: "RUB" },
        period: { unit: "month", count: 1 },
        invoiceId: "0192f3c4-5d6e-7f80-9a1b-2c3d4e5f6a7b",
        customerId: made.id,
      });
      expect(subscribed.status).toBe(422);
      expect(json(subscribed).errors).toEqual([
        expect.objectContaining({ pointer: "#/customerId", code: "mutually_exclusive" }),
      ]);
    });

    it("a subscription made from a paid invoice takes the invoice's customer, and so do its renewals", async () => {
      const h = await createHarness(options, { paymentPage: "kopek" });
      const made = await customer(h, { email: "a@example.com" });
      const created = await h.call("/v1/invoices", {
        ...invoiceBody(),
        savePaymentMethod: true,
        customerId: made.id,
      });
      const invoiceId = String(json(created).id);
      await payThroughProvider(h, invoiceId, "card");
      const subscribed = await h.call("/v1/subscriptions", {
        amount: { amount: "149900", currency: "RUB" },
        period: { unit: "month", count: 1 },
        invoiceId,
      });
      expect(subscribed.status).toBe(201);
      const subscription = json(subscribed);
      expect(subscription.customerId).toBe(made.id);
      h.clock.advance(Date.parse(String(subscription.nextChargeAt)) - h.clock.now().getTime());
      expect(await h.worker().runOnce()).toMatchObject({ charged: 1 });
      const renewals = json(await h.get("/v1/payments", { subscriptionId: String(subscription.id) }));
      expect((renewals.data as { customerId: string }[]).map((p) => p.customerId)).toEqual([made.id]);
    });

    it("erase (152-FZ): no stored copy of the email, phone or name is left; money records stay; customer.erased", async () => {
      const h = await createHarness(options, { paymentPage: "kopek" });
      const email = "erase.me@example.com";
      const phone = "+79997654321";
      const name = "Erasable Person";
      const made = await customer(h, { email, phone, name, externalId: "keep-me" });
      const receipt = {
        customer: { email, phone },
        items: [
          {
            description: "Pro plan",
            quantity: "1",
            amount: { amount: "149900", currency: "RUB" },
            vatCode: 1,
            paymentSubject: "service",
            paymentMode: "full_payment",
          },
        ],
      };
      const subscribed = await h.call("/v1/subscriptions", {
        ...subscriptionBody(),
        customerId: made.id,
        receipt,
      });
      expect(subscribed.status).toBe(201);
      const invoiced = await h.call("/v1/invoices", { ...invoiceBody(), customerId: made.id, receipt });
      expect(invoiced.status).toBe(201);
      const invoiceId = String(json(invoiced).id);
      const paid = await payThroughProvider(h, invoiceId, "card");
      const refunded = await h.call(`/v1/payments/${paid.payment.id}/refunds`, { reason: "returned" });
      expect(refunded.status).toBe(201);
      const before = await h.storage.inspect();

      const answer = await h.call(`/v1/customers/${made.id}/erase`, undefined);
      expect(answer.status).toBe(200);
      const body = json(answer);
      expect(body).toEqual({
        ...made,
        email: null,
        phone: null,
        name: null,
        externalId: "keep-me",
        erasedAt: h.clock.now().toISOString(),
      });
      expect(json(await h.get(`/v1/customers/${made.id}`))).toEqual(body);
      const events = (await h.storage.listEventDeliveries(h.project.id))._unsafeUnwrap();
      expect(events.at(-1)?.event).toMatchObject({ type: "customer.erased", data: body });

      const dump = JSON.stringify(await h.storage.inspect());
      for (const personal of [email, phone, name]) expect(dump).not.toContain(personal);
      const after = await h.storage.inspect();
      // Money records stay, as they were.
      expect(after.payments).toEqual(before.payments);
      expect(after.refunds).toEqual(before.refunds);
      expect(after.payments?.length).toBeGreaterThan(0);
      expect(after.refunds?.length).toBe(1);
      const invoice = json(await h.get(`/v1/invoices/${invoiceId}`));
      expect(invoice.receipt).toMatchObject({ customer: { email: "erased", phone: "erased" } });
      const subscription = json(await h.get(`/v1/subscriptions/${json(subscribed).id}`));
      expect(subscription.receipt).toMatchObject({ customer: { email: "erased", phone: "erased" } });
      expect(subscription.status).toBe("active");

      // Erasing again changes nothing; an erased customer takes no personal data again.
      expect(json(await h.call(`/v1/customers/${made.id}/erase`, {}))).toEqual(body);
      expect((await h.call(`/v1/customers/${made.id}`, { email })).status).toBe(409);
      expect((await h.call(`/v1/customers/${made.id}/erase`, { now: true })).status).toBe(422);
      const other = await createHarness({ ...options, createStorage: async () => h.storage });
      expect((await other.call(`/v1/customers/${made.id}/erase`, undefined)).status).toBe(404);
    });
  });
}
