import { describe, expect, it } from "vitest";
import { createHarness, invoiceBody, json, type KopekContractOptions } from "./kopek-harness.js";

/** The whole request sequence inside `kopek.handle`, as an embedding hands it over: raw body, URL, headers. */
export function registerRequestTests(options: KopekContractOptions): void {
  describe("requests as an embedding hands them over", () => {
    const post = (key: string, body: string, contentType = "application/json") => ({
      method: "POST",
      url: "/v1/invoices",
      headers: {
        authorization: `Bearer ${key}`,
        "idempotency-key": crypto.randomUUID(),
        "content-type": contentType,
      },
      body,
    });
    const nested = (levels: number) => `${"[".repeat(levels)}${"]".repeat(levels)}`;

    it("refuses a body nested 10,000 deep, or one that is not JSON, with 400 invalid_json", async () => {
      const h = await createHarness(options);
      const deep = await h.kopek.handle(post(h.apiKey, nested(10_000)));
      expect([deep.status, json(deep).code]).toEqual([400, "invalid_json"]);
      expect(json(deep).detail).toMatch(/nested deeper than 32 levels/);
      const broken = await h.kopek.handle(post(h.apiKey, '{"amount":'));
      expect([broken.status, json(broken).code]).toEqual([400, "invalid_json"]);
      const bytes = new TextEncoder().encode(JSON.stringify(invoiceBody()));
      expect((await h.kopek.handle({ ...post(h.apiKey, ""), body: bytes })).status).toBe(201);
      const notUtf8 = await h.kopek.handle({
        ...post(h.apiKey, ""),
        body: new Uint8Array([0x7b, 0xff, 0x7d]),
      });
      expect(json(notUtf8).code).toBe("invalid_json");
    });

    it("answers 413 past the body limit and 415 for another media type, but 401 first for a bad key", async () => {
      const h = await createHarness(options);
      const large = JSON.stringify({ ...invoiceBody(), description: "x".repeat(70_000) });
      const tooLarge = await h.kopek.handle(post(h.apiKey, large));
      expect([tooLarge.status, json(tooLarge).code]).toEqual([413, "payload_too_large"]);
      const text = await h.kopek.handle(post(h.apiKey, JSON.stringify(invoiceBody()), "text/plain"));
      expect([text.status, json(text).code]).toEqual([415, "unsupported_media_type"]);
      for (const request of [post("kopek_nope", large), post("kopek_nope", "{", "text/plain")])
        expect((await h.kopek.handle(request)).status).toBe(401);
    });

    it("answers the embedding's own refusal after authenticating, 401 first for a bad key", async () => {
      const h = await createHarness(options);
      const refusal = { code: "rate_limited", retryAfterSeconds: 2 } as const;
      const limited = await h.kopek.handle({ ...post(h.apiKey, "{}"), refusal });
      expect([limited.status, limited.headers["retry-after"]]).toEqual([429, "2"]);
      expect((await h.kopek.handle({ ...post("kopek_nope", "{}"), refusal })).status).toBe(401);
    });

    it("reads the query string of a list from the URL", async () => {
      const h = await createHarness(options);
      for (let i = 0; i < 3; i++) await h.call("/v1/invoices", invoiceBody());
      const page = await h.kopek.handle({
        method: "GET",
        url: "/v1/invoices?limit=1",
        headers: { authorization: `Bearer ${h.apiKey}` },
      });
      expect((json(page).data as unknown[]).length).toBe(1);
      expect(json(page).nextCursor).toEqual(expect.any(String));
      const twice = await h.get("/v1/invoices?limit=1&limit=2");
      expect([twice.status, json(twice).code]).toEqual([422, "validation_failed"]);
    });

    it("answers 404 outside /v1 without asking for a key, and inside /v1 only after one", async () => {
      const h = await createHarness(options);
      const outside = await h.kopek.handle({ method: "GET", url: "/v2/invoices", headers: {} });
      expect(outside.status).toBe(404);
      const unknown = { method: "GET", url: "/v1/nothing-here", headers: {} };
      expect((await h.kopek.handle(unknown)).status).toBe(401);
      const known = { ...unknown, headers: { authorization: `Bearer ${h.apiKey}` } };
      expect((await h.kopek.handle(known)).status).toBe(404);
    });
  });
}
