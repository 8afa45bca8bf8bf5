import { errAsync } from "neverthrow";
import { describe, expect, test } from "vitest";
import { buildApp } from "../src/app.js";
import { buildTestApp, invoiceBody, json, PUBLIC_URL } from "./helper.js";

describe("X-Request-Id and common headers", async () => {
  const t = await buildTestApp();

  test("a sane X-Request-Id is echoed, in the header and in problem bodies", async () => {
    const response = await t.post("/v1/invoices", "{", { "x-request-id": "req-42:abc" });
    expect(response.headers["x-request-id"]).toBe("req-42:abc");
    expect(json(response).requestId).toBe("req-42:abc");
  });

  test.each([
    ["none", undefined],
    ["one with a space", "a b"],
    ["129 characters", "r".repeat(129)],
    ["non-ASCII", "réq"],
  ])("%s: a new UUID instead", async (_name, sent) => {
    const headers: Record<string, string> = sent === undefined ? {} : { "x-request-id": sent };
    const response = await t.inject({ method: "GET", url: "/healthz", headers });
    expect(response.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
  });

  test.each([
    ["a success", () => t.post("/v1/invoices", invoiceBody())],
    ["a 401", () => t.inject({ method: "POST", url: "/v1/invoices" })],
    ["a 404", () => t.inject({ method: "GET", url: "/nope" })],
    ["a 415", () => t.post("/v1/invoices", "x", { "content-type": "text/plain" })],
  ])("every response carries X-Request-Id and nosniff, never X-Powered-By: %s", async (_name, send) => {
    const response = await send();
    expect(response.headers["x-request-id"]).toBeTruthy();
    expect(response.headers["x-content-type-options"]).toBe("nosniff");
    expect(response.headers["x-powered-by"]).toBeUndefined();
  });
});

describe("health", async () => {
  const t = await buildTestApp();

  test("GET /healthz: 200 {status: ok}", async () => {
    const response = await t.inject({ method: "GET", url: "/healthz" });
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe('{"status":"ok"}');
    expect(response.headers["content-type"]).toBe("application/json; charset=utf-8");
  });

  test("GET /readyz: 200 while storage answers", async () => {
    expect((await t.inject({ method: "GET", url: "/readyz" })).statusCode).toBe(200);
  });

  test("GET /readyz: 503 problem when storage does not answer", async () => {
    const storage = {
      ...t.storage,
      checkHealth: () => errAsync({ code: "storage_unavailable" as const, message: "down" }),
    };
    const app = await buildApp({ kopek: t.kopek, storage, publicUrl: PUBLIC_URL });
    const response = await app.inject({ method: "GET", url: "/readyz" });
    expect(response.statusCode).toBe(503);
    expect(response.headers["content-type"]).toBe("application/problem+json");
    expect(json(response).status).toBe(503);
  });

  test("the OpenAPI document and the docs page are served", async () => {
    const document = await t.inject({ method: "GET", url: "/openapi.json" });
    expect(document.statusCode).toBe(200);
    expect(json(document).openapi).toMatch(/^3\.1/);
    expect((await t.inject({ method: "GET", url: "/docs" })).statusCode).toBe(200);
  });
});
