import { randomUUID } from "node:crypto";
import { INVOICE_STATUSES } from "@kopek/core";
import { describe, expect, test } from "vitest";
import { buildOpenApiDocument } from "../src/openapi/document.js";
import { compileAgainstDocument } from "./document-schemas.js";
import { buildTestApp, invoiceBody, json, subscriptionBody } from "./helper.js";

// biome-ignore lint/suspicious/noExplicitAny: the document is walked as plain JSON
type Json = any;

const doc: Json = buildOpenApiDocument({ publicUrl: "http://127.0.0.1" });
const schemaFor = compileAgainstDocument(doc);
const UNKNOWN_ID = "0192f3c4-5e6f-7a8b-9c0d-1e2f3a4b5c6d";

describe("every documented operation is served, and answers as documented", async () => {
  const t = await buildTestApp();
  const subscription = json(await t.post("/v1/subscriptions", subscriptionBody())).id;
  const invoice = json(await t.post("/v1/invoices", invoiceBody())).id;

  test("each path and method of the document is a route of the app", () => {
    for (const [path, item] of Object.entries<Json>(doc.paths)) {
      for (const method of Object.keys(item)) {
        const url = path.replace("{id}", ":id");
        expect({ method, url, served: t.app.hasRoute({ method: method.toUpperCase(), url }) }).toEqual({
          method,
          url,
          served: true,
        });
      }
    }
  });

  const cases: [string, string, string, () => string][] = [
    ["GET", "/v1/subscriptions", "/v1/subscriptions?limit=1", () => ""],
    ["GET", "/v1/invoices", "/v1/invoices?status=created&limit=100", () => ""],
    ["GET", "/v1/invoices", "/v1/invoices?limit=101&cursor=x", () => ""],
    ["GET", "/v1/subscriptions/{id}", "/v1/subscriptions/:sub", () => ""],
    ["GET", "/v1/invoices/{id}", `/v1/invoices/${UNKNOWN_ID}`, () => ""],
    ["POST", "/v1/subscriptions/{id}/cancel", "/v1/subscriptions/:sub/cancel", () => ""],
    ["POST", "/v1/subscriptions/{id}/cancel", "/v1/subscriptions/:sub/cancel", () => "{}"],
    ["POST", "/v1/invoices/{id}/cancel", "/v1/invoices/:inv/cancel", () => "{}"],
    ["POST", "/v1/invoices/{id}/cancel", "/v1/invoices/:inv/cancel", () => '{"now":true}'],
  ];

  test.each(cases)("%s %s (%s)", async (method, path, url, payload) => {
    const response = await t.inject({
      method: method as "GET",
      url: url.replace(":sub", subscription).replace(":inv", invoice),
      headers: {
        authorization: `Bearer ${t.apiKey}`,
        ...(method === "POST" ? { "idempotency-key": randomUUID(), "content-type": "application/json" } : {}),
      },
      ...(method === "POST" ? { payload: payload() } : {}),
    });
    const documented = doc.paths[path][method.toLowerCase()].responses[String(response.statusCode)];
    expect(documented, `${response.statusCode} is not documented: ${response.body}`).toBeDefined();
    const [mediaType, content] = Object.entries<Json>(documented.content)[0] ?? [];
    expect(response.headers["content-type"]).toContain(mediaType);
    const component = String(content.schema.$ref).split("/").at(-1) ?? "";
    expect(schemaFor(component)(json(response)), `${component}: ${response.body}`).toBe(true);
  });

  test("the list parameters' constraints are the ones the runtime enforces", async () => {
    const { Limit, InvoiceStatus, Cursor } = doc.components.parameters;
    const status = (url: string) => t.get(url).then((response) => response.statusCode);
    expect(await status(`/v1/invoices?limit=${Limit.schema.maximum}`)).toBe(200);
    expect(await status(`/v1/invoices?limit=${Limit.schema.maximum + 1}`)).toBe(422);
    expect(await status(`/v1/invoices?limit=${Limit.schema.minimum}`)).toBe(200);
    expect(await status(`/v1/invoices?limit=${Limit.schema.minimum - 1}`)).toBe(422);
    expect((await t.get("/v1/invoices?limit=1000")).statusCode).toBe(422);
    expect(json(await t.get("/v1/subscriptions")).data.length).toBeLessThanOrEqual(Limit.schema.default);
    expect(InvoiceStatus.schema.enum).toEqual([...INVOICE_STATUSES]);
    for (const value of InvoiceStatus.schema.enum)
      expect(await status(`/v1/invoices?status=${value}`)).toBe(200);
    await t.post("/v1/invoices", invoiceBody());
    const page = json(await t.get("/v1/invoices?limit=1"));
    expect(page.nextCursor).toMatch(new RegExp(Cursor.schema.pattern));
  });
});
