import { describe, expect, it } from "vitest";
import {
  createHarness,
  invoiceBody,
  json,
  type KopekContractOptions,
  subscriptionBody,
} from "./kopek-harness.js";

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

export function registerCreateTests(options: KopekContractOptions): void {
  describe("create subscription", () => {
    it("charges the first cycle and answers 201 with the subscription of API.md 5.3", async () => {
      const h = await createHarness(options);
      const response = await h.call("/v1/subscriptions", subscriptionBody());
      expect(response.status).toBe(201);
      expect(response.headers["content-type"]).toBe("application/json; charset=utf-8");
      const body = json(response);
      expect(response.headers.location).toBe(`/v1/subscriptions/${body.id}`);
      expect(Object.keys(body)).toEqual([
        "id",
        "status",
        "amount",
        "period",
        "description",
        "method",
        "methodMask",
        "metadata",
        "startedAt",
        "nextChargeAt",
        "lastChargedAt",
        "cyclesStarted",
        "createdAt",
        "canceledAt",
        "cancelReason",
        "cancelAt",
        "cancelAtPeriodEnd",
        "pauseAt",
        "trialEnd",
        "receipt",
        "customerId",
      ]);
      expect(body).toMatchObject({
        status: "active",
        amount: { amount: "149900", currency: "RUB" },
        period: { unit: "month", count: 1 },
        description: "1499.00 RUB every month",
        method: "card",
        metadata: {},
        startedAt: "2026-01-31T10:00:00.000Z",
        lastChargedAt: "2026-01-31T10:00:00.000Z",
        createdAt: "2026-01-31T10:00:00.000Z",
        nextChargeAt: "2026-02-28T10:00:00.000Z",
        cyclesStarted: 1,
        canceledAt: null,
        cancelReason: null,
        cancelAt: null,
        cancelAtPeriodEnd: false,
        pauseAt: null,
        trialEnd: null,
      });
      expect(body.id).toMatch(UUID_V7);
      expect(body.methodMask).toMatch(/^\d{4} \d{2}\*\* \*{4} \d{4}$/);
      expect(response.body).not.toContain("pm_contract_card");
      expect(h.chargeCalls()).toBe(1);
      expect(h.provider.chargesMade()).toBe(1);
      const stored = (await h.storage.findSubscription(h.project.id, body.id as string))._unsafeUnwrap();
      expect(stored?.providerMethodRef).toBe("pm_contract_card");
    });

    it("keeps an 18-digit amount exact, byte for byte", async () => {
      const h = await createHarness(options);
      const body = { ...subscriptionBody(), amount: { amount: "999999999999999999", currency: "USD" } };
      const response = await h.call("/v1/subscriptions", body);
      expect(response.status).toBe(201);
      expect(response.body).toContain('"amount":{"amount":"999999999999999999","currency":"USD"}');
      expect(json(response).description).toBe("9999999999999999.99 USD every month");
    });

    it("refuses with method_unavailable before any charge when stored methods cannot be charged", async () => {
      const h = await createHarness(options, { storedMethodCharge: false });
      const response = await h.call("/v1/subscriptions", subscriptionBody());
      expect(response.status).toBe(422);
      expect(json(response)).toMatchObject({ code: "method_unavailable", status: 422 });
      expect(h.chargeCalls()).toBe(0);
      expect(h.provider.chargesMade()).toBe(0);
    });

    it("answers 402 payment_declined and creates nothing when the provider declines", async () => {
      const h = await createHarness(options);
      const response = await h.call("/v1/subscriptions", subscriptionBody(options.declinedRef));
      expect(response.status).toBe(402);
      expect(json(response).code).toBe("payment_declined");
      const rows = await h.storage.inspect();
      expect(rows.subscriptions ?? []).toHaveLength(0);
    });

    it("rejects a card number in providerMethodRef without calling the provider", async () => {
      const h = await createHarness(options);
      const response = await h.call("/v1/subscriptions", subscriptionBody("4111 1111 1111 1111"));
      expect(response.status).toBe(422);
      expect(json(response).errors).toEqual([
        { pointer: "#/providerMethodRef", code: "card_number_not_allowed", detail: expect.any(String) },
      ]);
      expect(response.body).not.toContain("4111");
      expect(h.chargeCalls()).toBe(0);
    });
  });

  // Both ways an invoice is made: with the link from the provider's own page (claim, run, complete),
  // and on Kopek's hosted page, asking nothing of the provider (one storage step).
  for (const paymentPage of ["provider", "kopek"] as const)
    describe(`create invoice (the payer pays on the ${paymentPage}'s page)`, () => {
      it("answers 201 with the invoice of API.md 5.4 and its payment link", async () => {
        const h = await createHarness(options, { paymentPage });
        const response = await h.call("/v1/invoices", { ...invoiceBody(), method: "sbp" });
        expect(response.status).toBe(201);
        const body = json(response);
        expect(Object.keys(body)).toEqual([
          "id",
          "status",
          "amount",
          "description",
          "comment",
          "customer",
          "metadata",
          "paymentUrl",
          "returnUrl",
          "method",
          "pinnedMethod",
          "createdAt",
          "expiresAt",
          "paidAt",
          "canceledAt",
          "savedMethod",
          "receipt",
          "attempts",
          "maxAttempts",
          "customerId",
        ]);
        expect(body).toMatchObject({
          status: "created",
          attempts: 0,
          maxAttempts: 20,
          description: "Invoice for 1499.00 RUB",
          comment: null,
          customer: null,
          metadata: {},
          returnUrl: null,
          method: null,
          pinnedMethod: "sbp",
          paidAt: null,
          canceledAt: null,
          savedMethod: null,
          paymentUrl: `https://pay.example.test/pay/${h.project.id}/${body.id}`,
          createdAt: "2026-01-31T10:00:00.000Z",
          expiresAt: "2026-02-01T10:00:00.000Z",
        });
        expect(body.id).toMatch(UUID_V7);
        expect(body.createdAt).toMatch(TIMESTAMP);
        expect(response.headers.location).toBe(`/v1/invoices/${body.id}`);
        expect(h.linkCalls()).toBe(paymentPage === "provider" ? 1 : 0);
        const stored = (await h.storage.findInvoice(h.project.id, body.id as string))._unsafeUnwrap();
        expect(stored).toMatchObject({
          id: body.id,
          status: "created",
          paymentUrl: body.paymentUrl,
          version: 1,
        });
      });

      it("pins the only element of methods and pins nothing for several", async () => {
        const h = await createHarness(options, { paymentPage });
        const one = json(await h.call("/v1/invoices", { ...invoiceBody(), methods: ["card"] }));
        const two = json(await h.call("/v1/invoices", { ...invoiceBody(), methods: ["card", "sbp"] }));
        expect(one.pinnedMethod).toBe("card");
        expect(two.pinnedMethod).toBeNull();
      });

      it("returns the customer, comment, metadata and returnUrl as sent", async () => {
        const h = await createHarness(options, { paymentPage });
        const customer = { email: "payer@example.com", phone: "+79991234567", externalId: "c-42" };
        const request = {
          ...invoiceBody(),
          comment: "тест ✓",
          customer,
          metadata: { order: "A-1" },
          returnUrl: "https://shop.example/return?x=1",
          expiresAt: "2026-02-10T00:00:00.000Z",
        };
        const body = json(await h.call("/v1/invoices", request));
        expect(body).toMatchObject({
          comment: "тест ✓",
          customer,
          metadata: { order: "A-1" },
          returnUrl: request.returnUrl,
        });
        expect(body.expiresAt).toBe("2026-02-10T00:00:00.000Z");
      });

      it("rejects method and methods together, with every other problem reported at once", async () => {
        const h = await createHarness(options, { paymentPage });
        const response = await h.call("/v1/invoices", {
          amount: { amount: 5, currency: "rub" },
          method: "card",
          methods: ["card"],
          extra: 1,
        });
        expect(response.status).toBe(422);
        const codes = (json(response).errors as { pointer: string; code: string }[]).map(
          (e) => `${e.pointer} ${e.code}`,
        );
        expect(codes.sort()).toEqual(
          [
            "#/amount/amount invalid_type",
            "#/amount/currency invalid_format",
            "#/extra unknown_field",
            "#/methods mutually_exclusive",
          ].sort(),
        );
        expect((await h.storage.inspect()).idempotency_records ?? []).toHaveLength(0);
        expect(h.linkCalls()).toBe(0);
      });

      it("stores and replays method_unavailable for a method the provider lacks, with no invoice", async () => {
        const h = await createHarness(options, { paymentPage, methods: ["card"] });
        const first = await h.call("/v1/invoices", { ...invoiceBody(), method: "sbp" }, "no-sbp");
        const again = await h.call("/v1/invoices", { ...invoiceBody(), method: "sbp" }, "no-sbp");
        expect([first.status, json(first).code]).toEqual([422, "method_unavailable"]);
        expect([again.status, again.body, again.headers["idempotent-replayed"]]).toEqual([
          422,
          first.body,
          "true",
        ]);
        expect((await h.storage.inspect()).invoices ?? []).toHaveLength(0);
        expect(h.linkCalls()).toBe(0);
      });
    });
}
