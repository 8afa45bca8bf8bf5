import fc from "fast-check";
import { expect, it } from "vitest";
import { buildOpenApiDocument } from "../src/openapi/document.js";
import { compileAgainstDocument } from "./document-schemas.js";
import { arbitraryFor } from "./fuzz/schema-arbitrary.js";
import { startPayServer } from "./pay-fixture.js";

// biome-ignore lint/suspicious/noExplicitAny: the document is walked as plain JSON
type Json = any;

const RUNS = Number(process.env.KOPEK_OPENAPI_FUZZ_RUNS ?? 25);

/**
 * Requests made from the OpenAPI document itself — bodies, query parameters and Idempotency-Keys drawn
 * by fast-check from each operation's schemas (test/fuzz/schema-arbitrary.ts) — sent to a running
 * server; every answer's status must be one the operation documents, and its body must validate
 * against the schema documented for that status and content type.
 */
it("every operation answers the requests its document describes with a documented status and body", async () => {
  const server = await startPayServer("http://127.0.0.1:9/hooks");
  try {
    const doc: Json = JSON.parse(JSON.stringify(buildOpenApiDocument({ publicUrl: server.url })));
    const resolve = (ref: string) =>
      ref
        .split("/")
        .slice(1)
        .reduce((node: Json, key: string) => node[key], doc);
    const ajv = compileAgainstDocument(doc);
    const validateAgainst = (schema: Json) =>
      schema.$ref !== undefined ? ajv(schema.$ref.split("/").pop()) : () => true;
    // A real resource for paths with an id; unknown ids are covered by the 404s the operations document.
    const invoice = (await (
      await server.post("/v1/invoices", { amount: { amount: "100", currency: "RUB" } })
    ).json()) as { id: string };
    const ids = fc.constantFrom(invoice.id, crypto.randomUUID());

    for (const [path, item] of Object.entries<Json>(doc.paths)) {
      for (const [method, operation] of Object.entries<Json>(item)) {
        const parameters = (operation.parameters ?? []).map((p: Json) => (p.$ref ? resolve(p.$ref) : p));
        const query = parameters.filter((p: Json) => p.in === "query");
        const bodySchema = operation.requestBody?.content?.["application/json"]?.schema;
        const request = fc.record({
          id: ids,
          key: arbitraryFor(resolve("#/components/parameters/Idempotency-Key").schema, resolve),
          query: fc.record(
            Object.fromEntries(query.map((p: Json) => [p.name, arbitraryFor(p.schema, resolve)])),
            { requiredKeys: [] },
          ),
          body: bodySchema === undefined ? fc.constant(undefined) : arbitraryFor(bodySchema, resolve),
        });
        await fc.assert(
          fc.asyncProperty(request, async ({ id, key, query: values, body }) => {
            const search = new URLSearchParams(
              Object.entries(values as Record<string, unknown>).map(([k, v]) => [k, String(v)]),
            );
            const url = `${server.url}${path.replace("{id}", id)}${search.size > 0 ? `?${search}` : ""}`;
            const response = await fetch(url, {
              method: method.toUpperCase(),
              headers: {
                authorization: `Bearer ${server.apiKey}`,
                ...(method === "post" ? { "idempotency-key": String(key) } : {}),
                ...(body === undefined ? {} : { "content-type": "application/json" }),
              },
              ...(body === undefined ? {} : { body: JSON.stringify(body) }),
            });
            const text = await response.text();
            const documented = operation.responses[String(response.status)];
            const where = `${method.toUpperCase()} ${url} ${JSON.stringify(body)} -> ${response.status} ${text.slice(0, 300)}`;
            expect(documented, where).toBeDefined();
            const type = (response.headers.get("content-type") ?? "").split(";")[0] ?? "";
            const content = documented.content?.[type];
            expect(content, where).toBeDefined();
            expect(validateAgainst(content.schema)(JSON.parse(text)), where).toBe(true);
          }),
          { numRuns: RUNS, endOnFailure: true },
        );
      }
    }
  } finally {
    await server.close();
  }
}, 240_000);
