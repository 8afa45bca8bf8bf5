import type { AddressInfo } from "node:net";
import { connect } from "node:net";
import { MAX_JSON_DEPTH } from "@kopek/core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { buildTestApp, invoiceBody, json, subscriptionBody, type TestApp } from "./helper.js";

const STRICT_CSP = "default-src 'none'; frame-ancestors 'none'";

describe("security headers", async () => {
  const t = await buildTestApp();
  const headersOf = async (method: "GET" | "POST", url: string, body?: unknown, auth = true) =>
    (
      await t.inject({
        method,
        url,
        headers: {
          ...(auth ? { authorization: `Bearer ${t.apiKey}` } : {}),
          "content-type": "application/json",
          "idempotency-key": crypto.randomUUID(),
        },
        ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
      })
    ).headers;

  test.each([
    ["a 201", "POST", "/v1/subscriptions", subscriptionBody(), true],
    ["a 422 problem", "POST", "/v1/invoices", invoiceBody({ amount: 5 }), true],
    ["a 401", "GET", "/v1/invoices", undefined, false],
    ["a 404 outside /v1", "GET", "/nothing", undefined, false],
    ["/healthz", "GET", "/healthz", undefined, false],
    ["/readyz", "GET", "/readyz", undefined, false],
  ] as const)(
    "%s: nosniff, no-store, no referrer, a strict CSP, no X-Powered-By",
    async (_name, method, url, body, auth) => {
      const headers = await headersOf(method, url, body, auth);
      expect(headers["x-content-type-options"]).toBe("nosniff");
      expect(headers["cache-control"]).toBe("no-store");
      expect(headers["referrer-policy"]).toBe("no-referrer");
      expect(headers["content-security-policy"]).toBe(STRICT_CSP);
      expect(headers["x-powered-by"]).toBeUndefined();
    },
  );

  test("a URL Fastify cannot decode still gets them", async () => {
    const { headers } = await t.inject({ method: "GET", url: "/%zz" });
    expect(headers["content-security-policy"]).toBe(STRICT_CSP);
    expect(headers["cache-control"]).toBe("no-store");
  });

  test("the docs page keeps its own CSP and the OpenAPI document its own caching", async () => {
    const docs = await headersOf("GET", "/docs", undefined, false);
    expect(docs["content-security-policy"]).not.toBe(STRICT_CSP);
    expect(docs["content-security-policy"]).toContain("default-src 'self'");
    expect(docs["referrer-policy"]).toBe("no-referrer");
    expect((await headersOf("GET", "/openapi.json", undefined, false))["cache-control"]).toBe("no-cache");
  });
});

describe("JSON limits", async () => {
  const t = await buildTestApp();
  const nested = (levels: number): unknown => (levels === 0 ? "x" : { a: nested(levels - 1) });

  test(`a body nested deeper than ${MAX_JSON_DEPTH} levels is 400 invalid_json, saying why`, async () => {
    const response = await t.post("/v1/invoices", { ...invoiceBody(), metadata: nested(MAX_JSON_DEPTH) });
    expect(response.statusCode).toBe(400);
    expect(json(response)).toMatchObject({
      code: "invalid_json",
      detail: "the request body is nested deeper than 32 levels",
    });
  });

  test("a 60 KiB array 30,000 levels deep is refused the same way, and the server stays up", async () => {
    const deep = `${"[".repeat(30_000)}${"]".repeat(30_000)}`;
    const response = await t.post("/v1/subscriptions", deep);
    expect(response.statusCode).toBe(400);
    expect(json(response).code).toBe("invalid_json");
    expect((await t.get("/healthz")).statusCode).toBe(200);
  });

  test("nesting within the limit reaches validation (422), not the JSON limit", async () => {
    const response = await t.post("/v1/invoices", { ...invoiceBody(), metadata: nested(MAX_JSON_DEPTH - 2) });
    expect(response.statusCode).toBe(422);
  });

  test("more than 1000 keys and array elements in all is 400 invalid_json", async () => {
    const metadata = Object.fromEntries(Array.from({ length: 1001 }, (_, i) => [`k${i}`, "v"]));
    const response = await t.post("/v1/invoices", { ...invoiceBody(), metadata });
    expect(response.statusCode).toBe(400);
    expect(json(response).detail).toBe("the request body has more than 1000 keys and array elements");
  });
});

describe("timeouts on slow clients", () => {
  let t: TestApp;
  let port = 0;
  beforeAll(async () => {
    t = await buildTestApp({
      timeouts: {
        headersMs: 300,
        requestMs: 600,
        idleSocketMs: 5000,
        keepAliveMs: 5000,
        checkIntervalMs: 50,
      },
    });
    await t.app.listen({ port: 0, host: "127.0.0.1" });
    port = (t.app.server.address() as AddressInfo).port;
  });
  afterAll(() => t.app.close());

  /** Writes `text` and never finishes the request; resolves with what the server answered and when it hung up. */
  const stall = (text: string) =>
    new Promise<{ answer: string; ms: number }>((resolve) => {
      const started = Date.now();
      const socket = connect(port, "127.0.0.1", () => socket.write(text));
      let answer = "";
      socket.on("data", (chunk) => (answer += chunk.toString()));
      socket.on("close", () => resolve({ answer, ms: Date.now() - started }));
      socket.on("error", () => {});
    });

  test("headers that never finish: 408 and the connection closed after the headers timeout", async () => {
    const { answer, ms } = await stall("POST /v1/invoices HTTP/1.1\r\nHost: x\r\nX-Slow: 1\r\n");
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
    expect(answer).toContain('"code":"request_timeout"');
    expect(ms).toBeGreaterThanOrEqual(250);
    expect(ms).toBeLessThan(3000);
  });

  test("a request Node cannot parse gets a problem document too (400 bad_request)", async () => {
    const { answer } = await stall("GET /v1/invoices HTTP/1.1\r\nHost: x\r\nX-Bad: a\u0001b\r\n\r\n");
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(answer).toContain("content-type: application/problem+json");
    expect(answer).toContain("content-security-policy: default-src 'none'; frame-ancestors 'none'");
    const problem = JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4));
    expect(problem).toMatchObject({
      type: "urn:kopek:problem:bad_request",
      status: 400,
      code: "bad_request",
    });
    expect(typeof problem.requestId).toBe("string");
  });

  test("a body that never finishes: closed after the request timeout", async () => {
    const { answer, ms } = await stall(
      `POST /v1/invoices HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${t.apiKey}\r\n` +
        "Content-Type: application/json\r\nIdempotency-Key: slow\r\nContent-Length: 100\r\n\r\n{",
    );
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
    expect(ms).toBeGreaterThanOrEqual(550);
    expect(ms).toBeLessThan(3000);
  });
});
