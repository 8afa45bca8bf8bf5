import { randomUUID } from "node:crypto";
import {
  createKopek,
  createUuidV7Generator,
  customerEvent,
  EVENT_TYPES,
  invoiceEvent,
  paymentEvent,
  ROUTES,
  refundEvent,
  subscriptionEvent,
  validateCreateInvoice,
  validateCreateSubscription,
  webhookPayload,
} from "@kopek/core";
import { createSandboxProvider } from "@kopek/provider-sandbox";
import { createMemoryStorage } from "@kopek/storage-memory";
import { sampleInvoice, samplePayment, sampleRefund, sampleSubscription } from "@kopek/testing";
import { Validator } from "@seriousme/openapi-schema-validator";
import { beforeAll, describe, expect, it } from "vitest";
import { compileAgainstDocument } from "../../test/document-schemas.js";
import { createProjectWithKey } from "../startup/project-setup.js";
import { buildOpenApiDocument } from "./document.js";
import { EXAMPLE_INVOICE_REQUEST, EXAMPLE_SUBSCRIPTION_REQUEST } from "./examples.js";

// The error table of API.md 4, row by row: status and code.
const API_MD_ERROR_TABLE: readonly [number, string][] = [
  [400, "invalid_json"],
  [400, "bad_request"],
  [400, "idempotency_key_missing"],
  [400, "idempotency_key_invalid"],
  [401, "unauthorized"],
  [402, "payment_declined"],
  [404, "not_found"],
  [405, "method_not_allowed"],
  [409, "idempotency_request_in_progress"],
  [409, "invalid_state"],
  [408, "request_timeout"],
  [413, "payload_too_large"],
  [415, "unsupported_media_type"],
  [431, "headers_too_large"],
  [422, "validation_failed"],
  [422, "idempotency_key_reused"],
  [422, "method_unavailable"],
  [429, "rate_limited"],
  [500, "internal_error"],
  [502, "provider_error"],
  [503, "provider_unavailable"],
];

// biome-ignore lint/suspicious/noExplicitAny: the document is walked as plain JSON
type Json = any;

const doc: Json = buildOpenApiDocument({ publicUrl: "https://api.example.com/" });

const schemaFor = compileAgainstDocument(doc);

describe("the OpenAPI document", () => {
  it("is a valid OpenAPI 3.1 document", async () => {
    const validator = new Validator({ strict: false });
    const result = await validator.validate(structuredClone(doc));
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(validator.version).toBe("3.1");
  });

  it("compiles every component schema under JSON Schema 2020-12 in strict mode", () => {
    for (const name of Object.keys(doc.components.schemas)) expect(() => schemaFor(name)).not.toThrow();
  });

  it("describes every route the server serves (openapi-routes.test.ts checks each against the app)", () => {
    const operations = Object.entries<Json>(doc.paths).flatMap(([path, item]) =>
      Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(operations.sort()).toEqual(
      [
        "GET /healthz",
        "GET /readyz",
        ...["subscriptions", "invoices"].flatMap((collection) => [
          `GET /v1/${collection}`,
          `POST /v1/${collection}`,
          `GET /v1/${collection}/{id}`,
          `POST /v1/${collection}/{id}/cancel`,
        ]),
        // A subscription changes (API.md 11.3), pauses and resumes (11.4) and takes a payer's new
        // method through a link (11.5); an invoice does none of that.
        "POST /v1/subscriptions/{id}",
        "POST /v1/subscriptions/{id}/pause",
        "POST /v1/subscriptions/{id}/resume",
        "POST /v1/subscriptions/{id}/method-update",
        // Payments are made by paying (API.md 10.2); refunds through their payment (10.6).
        "GET /v1/payments",
        "GET /v1/payments/{id}",
        "POST /v1/payments/{id}/refunds",
        "GET /v1/refunds",
        "GET /v1/refunds/{id}",
        // Customers are made, read, listed and changed (API.md 11.1).
        "GET /v1/customers",
        "POST /v1/customers",
        "GET /v1/customers/{id}",
        "POST /v1/customers/{id}",
        "POST /v1/customers/{id}/erase",
        // Events and webhook endpoints (API.md 12); DELETE only here.
        "GET /v1/events",
        "GET /v1/events/{id}",
        "POST /v1/events/{id}/redeliver",
        "GET /v1/webhook-endpoints",
        "POST /v1/webhook-endpoints",
        "GET /v1/webhook-endpoints/{id}",
        "POST /v1/webhook-endpoints/{id}",
        "DELETE /v1/webhook-endpoints/{id}",
        "POST /v1/webhook-endpoints/{id}/rotate-secret",
        "GET /v1/webhook-endpoints/{id}/deliveries",
      ].sort(),
    );
    // Core's route table is the source: nothing it serves is missing from the document.
    for (const route of ROUTES) expect(operations).toContain(`${route.method} ${route.path}`);
    expect(doc.servers).toEqual([{ url: "https://api.example.com" }]);
  });

  it("documents the payments list's filters and the Payment of API.md 10.2", () => {
    const list = doc.paths["/v1/payments"].get;
    const names = list.parameters
      .map((p: Json) => doc.components.parameters[p.$ref.split("/").pop()])
      .filter((p: Json) => p.in === "query")
      .map((p: Json) => p.name);
    expect(names.sort()).toEqual(["cursor", "customerId", "invoiceId", "limit", "status", "subscriptionId"]);
    const payment = doc.components.schemas.Payment;
    expect(Object.keys(payment.properties)).toEqual([
      "id",
      "status",
      "amount",
      "amountRefunded",
      "method",
      "methodMask",
      "invoiceId",
      "subscriptionId",
      "cycle",
      "kind",
      "provider",
      "providerPaymentId",
      "failureCode",
      "createdAt",
      "succeededAt",
      "canceledAt",
      "customerId",
    ]);
    expect(payment.properties.status.enum).toEqual(["pending", "succeeded", "canceled"]);
  });

  it("lists every error code of API.md 4 on Problem.code, each documented under its status by some operation", () => {
    const codes: string[] = doc.components.schemas.Problem.properties.code.enum;
    const operations = Object.values(doc.paths).flatMap((item) => Object.values(item as object));
    for (const [status, code] of API_MD_ERROR_TABLE) {
      expect(codes).toContain(code);
      // Answered to a method no operation has (QUERY, PUT…), so no operation lists it.
      if (code === "method_not_allowed") continue;
      const response = operations
        .map((operation) => operation.responses[String(status)])
        .find((candidate) => candidate?.content["application/problem+json"].examples[code] !== undefined);
      expect(response?.content["application/problem+json"].examples[code]?.value, code).toMatchObject({
        status,
        code,
      });
    }
  });

  it("has no unused component: every schema, parameter, header and response is referenced", () => {
    const text = JSON.stringify({ ...doc, components: { ...doc.components, schemas: {} } });
    const schemas = JSON.stringify(doc.components.schemas);
    for (const kind of ["schemas", "parameters", "headers", "responses"] as const) {
      for (const name of Object.keys(doc.components[kind] ?? {})) {
        const ref = `"#/components/${kind}/${name}"`;
        expect(text.includes(ref) || schemas.includes(ref), `${kind}/${name}`).toBe(true);
      }
    }
  });

  it("documents the errors each create operation can answer with, examples valid against Problem", () => {
    const isProblem = schemaFor("Problem");
    const statuses = (path: string) => Object.keys(doc.paths[path].post.responses);
    const common = [
      "200",
      "201",
      "400",
      "401",
      "408",
      "409",
      "413",
      "415",
      "422",
      "429",
      "431",
      "500",
      "502",
      "503",
    ];
    expect(statuses("/v1/subscriptions").sort()).toEqual([...common, "402"].sort());
    expect(statuses("/v1/invoices").sort()).toEqual(common.sort());
    for (const path of ["/v1/subscriptions", "/v1/invoices", "/healthz", "/readyz"]) {
      const operation = Object.values(doc.paths[path])[0] as Json;
      for (const [status, response] of Object.entries<Json>(operation.responses)) {
        const problem = response.content?.["application/problem+json"];
        if (problem === undefined) continue;
        for (const example of Object.values<Json>(problem.examples)) {
          expect(isProblem(example.value)).toBe(true);
          expect(String(example.value.status)).toBe(status);
        }
      }
    }
  });

  it("documents authentication, Idempotency-Key and the response headers", () => {
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: "http", scheme: "bearer" });
    expect(doc.security).toEqual([{ bearerAuth: [] }]);
    expect(doc.paths["/healthz"].get.security).toEqual([]);
    expect(doc.components.parameters["Idempotency-Key"]).toMatchObject({
      in: "header",
      required: true,
      schema: { minLength: 1, maxLength: 255 },
    });
    const responses = doc.paths["/v1/invoices"].post.responses;
    expect(Object.keys(responses["201"].headers).sort()).toEqual(["Location", "X-Request-Id"]);
    expect(responses["200"].headers["Idempotent-Replayed"].required).toBe(true);
    expect(responses["401"].headers["WWW-Authenticate"].required).toBe(true);
    expect(responses["409"].headers["Retry-After"].required).toBe(true);
    expect(responses["429"].headers["Retry-After"].required).toBe(true);
    expect(responses["422"].headers["Idempotent-Replayed"]).toBeDefined();
  });

  it("documents every event type under webhooks: the POST, the three webhook-* headers and the payload", () => {
    expect(Object.keys(doc.webhooks).sort()).toEqual([...EVENT_TYPES].sort());
    const ids = createUuidV7Generator();
    const at = new Date("2026-02-01T10:00:00.000Z");
    for (const type of EVENT_TYPES) {
      const operation = doc.webhooks[type].post;
      const headers = operation.parameters.map(
        (p: Json) => doc.components.parameters[p.$ref.split("/").pop()],
      );
      expect(headers.map((h: Json) => [h.name, h.in, h.required])).toEqual([
        ["webhook-id", "header", true],
        ["webhook-timestamp", "header", true],
        ["webhook-signature", "header", true],
      ]);
      const [ref, pinned] = operation.requestBody.content["application/json"].schema.allOf;
      expect(pinned).toEqual({ properties: { type: { const: type } } });
      // A real body, as the dispatcher sends it, is valid against the documented schema.
      const event = type.startsWith("invoice.")
        ? invoiceEvent(type as "invoice.paid", sampleInvoice(randomUUID(), { id: ids.newId() }), at, ids)
        : type.startsWith("payment.")
          ? paymentEvent(
              "payment.canceled",
              samplePayment(randomUUID(), {
                id: ids.newId(),
                invoiceId: ids.newId(),
                status: "canceled",
                failureCode: "payment_declined",
                succeededAt: null,
                canceledAt: at,
              }),
              at,
              ids,
            )
          : type.startsWith("refund.")
            ? refundEvent(
                type as "refund.succeeded",
                sampleRefund(samplePayment(randomUUID()), { id: ids.newId(), paymentId: ids.newId() }),
                at,
                ids,
              )
            : type.startsWith("customer.")
              ? customerEvent(
                  type as "customer.created",
                  {
                    id: ids.newId(),
                    projectId: randomUUID(),
                    email: "payer@example.com",
                    phone: null,
                    name: "Anna",
                    externalId: "user-1",
                    metadata: {},
                    createdAt: at,
                    erasedAt: null,
                    version: 1,
                  },
                  at,
                  ids,
                )
              : subscriptionEvent(
                  type as "subscription.renewed",
                  sampleSubscription(randomUUID(), { id: ids.newId() }),
                  at,
                  ids,
                );
      expect(schemaFor(ref.$ref.split("/").pop())(JSON.parse(webhookPayload(event)))).toBe(true);
      expect(Object.keys(operation.responses)).toEqual(["2XX"]);
    }
  });

  it("uses shared components for Money, Period and the other named shapes", () => {
    const request = doc.components.schemas.CreateSubscriptionRequest.properties;
    expect(request.amount).toEqual({ $ref: "#/components/schemas/Money" });
    expect(request.period).toEqual({ $ref: "#/components/schemas/Period" });
    expect(doc.components.schemas.Subscription.properties.amount).toEqual({
      $ref: "#/components/schemas/Money",
    });
    expect(JSON.stringify(doc)).not.toContain("$defs");
  });
});

describe("the document and the runtime agree", () => {
  const now = new Date();
  const context = { currencies: ["RUB", "USD", "EUR"], now };

  it("accepts the documented example bodies, as core's validation does", () => {
    expect(schemaFor("CreateSubscriptionRequest")(EXAMPLE_SUBSCRIPTION_REQUEST)).toBe(true);
    expect(schemaFor("CreateInvoiceRequest")(EXAMPLE_INVOICE_REQUEST)).toBe(true);
    expect(validateCreateSubscription(EXAMPLE_SUBSCRIPTION_REQUEST, context).isOk()).toBe(true);
    expect(validateCreateInvoice(EXAMPLE_INVOICE_REQUEST, context).isOk()).toBe(true);
    const fromInvoice = {
      amount: EXAMPLE_SUBSCRIPTION_REQUEST.amount,
      period: EXAMPLE_SUBSCRIPTION_REQUEST.period,
      invoiceId: "0192f3c4-5d6e-7f80-9a1b-2c3d4e5f6a7b",
    };
    expect(schemaFor("CreateSubscriptionRequest")(fromInvoice)).toBe(true);
    expect(validateCreateSubscription(fromInvoice, context).isOk()).toBe(true);
  });

  const base = EXAMPLE_SUBSCRIPTION_REQUEST;
  const invalidSubscriptions: Record<string, unknown> = {
    "amount as a JSON number": { ...base, amount: { amount: 149900, currency: "RUB" } },
    "amount with a leading zero": { ...base, amount: { amount: "0100", currency: "RUB" } },
    "amount with a dot": { ...base, amount: { amount: "1499.00", currency: "RUB" } },
    "19-digit amount": { ...base, amount: { amount: "1000000000000000000", currency: "RUB" } },
    "lower-case currency": { ...base, amount: { amount: "100", currency: "rub" } },
    "unknown field": { ...base, coupon: "FREE" },
    "unknown nested field": { ...base, period: { unit: "month", count: 1, anchor: "x" } },
    "missing method": { amount: base.amount, period: base.period, providerMethodRef: "pm_1" },
    "invoiceId and a method too": { ...base, invoiceId: "0192f3c4-5d6e-7f80-9a1b-2c3d4e5f6a7b" },
    "invoiceId that is no UUID": { amount: base.amount, period: base.period, invoiceId: "inv_1" },
    "unknown method": { ...base, method: "cash" },
    "period count 0": { ...base, period: { unit: "month", count: 0 } },
    "empty providerMethodRef": { ...base, providerMethodRef: "" },
    "metadata key too long": { ...base, metadata: { ["k".repeat(41)]: "v" } },
  };

  it.each(Object.entries(invalidSubscriptions))(
    "rejects a subscription with %s, as core does",
    (_name, body) => {
      expect(schemaFor("CreateSubscriptionRequest")(body)).toBe(false);
      expect(validateCreateSubscription(body, context).isErr()).toBe(true);
    },
  );

  const invalidInvoices: Record<string, unknown> = {
    "no amount": { description: "x" },
    "customer without email": {
      amount: { amount: "100", currency: "RUB" },
      customer: { phone: "+79991234567" },
    },
    "phone not E.164": {
      amount: { amount: "100", currency: "RUB" },
      customer: { email: "a@b.co", phone: "8999" },
    },
    "empty methods": { amount: { amount: "100", currency: "RUB" }, methods: [] },
    "relative returnUrl": { amount: { amount: "100", currency: "RUB" }, returnUrl: "/thanks" },
    "an ftp returnUrl": { amount: { amount: "100", currency: "RUB" }, returnUrl: "ftp://shop.example/x" },
    "a javascript: returnUrl": {
      amount: { amount: "100", currency: "RUB" },
      returnUrl: "javascript:alert(1)",
    },
    "repeated methods": { amount: { amount: "100", currency: "RUB" }, methods: ["card", "card"] },
    "both method and methods": {
      amount: { amount: "100", currency: "RUB" },
      method: "card",
      methods: ["sbp"],
    },
    "51 metadata keys": {
      amount: { amount: "100", currency: "RUB" },
      metadata: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, "v"])),
    },
  };

  it("accepts what core accepts at the edges: 50 metadata keys, an HTTPS returnUrl in capitals", () => {
    for (const body of [
      {
        amount: { amount: "100", currency: "RUB" },
        metadata: Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${i}`, "v"])),
      },
      { amount: { amount: "100", currency: "RUB" }, returnUrl: "HTTPS://shop.example/thanks" },
    ]) {
      expect(schemaFor("CreateInvoiceRequest")(body)).toBe(true);
      expect(validateCreateInvoice(body, context).isOk()).toBe(true);
    }
  });

  it("the Idempotency-Key pattern refuses what arrives empty (only spaces) and takes printable keys", () => {
    const pattern = new RegExp(doc.components.parameters["Idempotency-Key"].schema.pattern);
    for (const key of ["   ", " a", "a ", "\ta", "ключ", ""]) expect(pattern.test(key), key).toBe(false);
    for (const key of ["a", "order 42", "x".repeat(255), "~!@#"]) expect(pattern.test(key), key).toBe(true);
  });

  it.each(Object.entries(invalidInvoices))("rejects an invoice with %s, as core does", (_name, body) => {
    expect(schemaFor("CreateInvoiceRequest")(body)).toBe(false);
    expect(validateCreateInvoice(body, context).isErr()).toBe(true);
  });

  describe("responses core really sends", () => {
    let call: (path: string, body: unknown) => Promise<{ status: number; body: Json }>;

    beforeAll(async () => {
      const storage = createMemoryStorage();
      const kopek = createKopek({
        storage,
        providerFor: () => createSandboxProvider(),
        publicUrl: "https://pay.example.com",
      });
      const { apiKey } = (
        await createProjectWithKey(storage, {
          name: "shop",
          provider: { kind: "sandbox", storedMethodCharge: true },
        })
      )._unsafeUnwrap();
      call = async (path, body) => {
        const response = await kopek.handle({
          method: "POST",
          url: path,
          headers: {
            authorization: `Bearer ${apiKey}`,
            "idempotency-key": randomUUID(),
            "content-type": "application/json",
          },
          body: JSON.stringify(body),
        });
        return { status: response.status, body: JSON.parse(response.body) };
      };
    });

    it("match Subscription, Invoice and Problem in the document", async () => {
      const subscription = await call("/v1/subscriptions", EXAMPLE_SUBSCRIPTION_REQUEST);
      expect(subscription.status).toBe(201);
      expect(schemaFor("Subscription")(subscription.body)).toBe(true);

      const invoice = await call("/v1/invoices", EXAMPLE_INVOICE_REQUEST);
      expect(invoice.status).toBe(201);
      expect(schemaFor("Invoice")(invoice.body)).toBe(true);
      const bare = await call("/v1/invoices", { amount: { amount: "100", currency: "EUR" } });
      expect(schemaFor("Invoice")(bare.body)).toBe(true);

      const problem = await call("/v1/invoices", {
        amount: { amount: "1.5", currency: "XXX" },
        method: "card",
        methods: ["card"],
      });
      expect(problem.status).toBe(422);
      expect(problem.body.errors.length).toBeGreaterThan(1);
      expect(schemaFor("Problem")(problem.body)).toBe(true);
    });
  });
});
