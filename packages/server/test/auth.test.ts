import { generateApiKey, hashApiKey } from "@kopek/core";
import { describe, expect, test } from "vitest";
import { buildTestApp, invoiceBody, json } from "./helper.js";

// A key of the right shape (prefix, length, base62) whose checksum does not match.
const badChecksum = (key: string) => key.slice(0, -1) + (key.endsWith("0") ? "1" : "0");

describe("401 unauthorized (API.md 2)", async () => {
  const t = await buildTestApp();

  test.each([
    ["no Authorization header", undefined],
    ["another scheme", `Basic ${t.apiKey}`],
    ["no token", "Bearer"],
    ["a malformed key", "Bearer kopek_short"],
    ["a bad checksum", `Bearer ${badChecksum(t.apiKey)}`],
  ])("%s", async (_name, authorization) => {
    const headers: Record<string, string> = { "content-type": "application/json", "idempotency-key": "k" };
    if (authorization !== undefined) headers.authorization = authorization;
    const response = await t.inject({ method: "POST", url: "/v1/invoices", headers, payload: invoiceBody() });
    expect(response.statusCode).toBe(401);
    expect(response.headers["www-authenticate"]).toBe("Bearer");
    expect(response.headers["content-type"]).toBe("application/problem+json");
    expect(json(response)).toMatchObject({
      code: "unauthorized",
      status: 401,
      type: "urn:kopek:problem:unauthorized",
    });
  });

  test("an unknown key of valid shape", async () => {
    const response = await t.post("/v1/invoices", invoiceBody(), {
      authorization: `Bearer ${generateApiKey()}`,
    });
    expect(response.statusCode).toBe(401);
  });

  test("a revoked key", async () => {
    const other = await buildTestApp();
    expect((await other.post("/v1/invoices", invoiceBody())).statusCode).toBe(201);
    await other.storage.revokeApiKey(hashApiKey(other.apiKey), new Date());
    const response = await other.post("/v1/invoices", invoiceBody());
    expect(response.statusCode).toBe(401);
    expect(json(response).code).toBe("unauthorized");
  });

  test.each([
    ["invalid JSON", { "content-type": "application/json" }, "{not json"],
    ["a wrong content type", { "content-type": "text/plain" }, "hello"],
    ["a 70 KiB body", { "content-type": "application/json" }, JSON.stringify({ pad: "x".repeat(70 * 1024) })],
  ])("a key revoked after it was used (and remembered) gets 401 over %s", async (_name, headers, payload) => {
    const other = await buildTestApp();
    expect((await other.post("/v1/invoices", invoiceBody())).statusCode).toBe(201);
    await other.storage.revokeApiKey(hashApiKey(other.apiKey), new Date());
    const response = await other.inject({
      method: "POST",
      url: "/v1/invoices",
      headers: { authorization: `Bearer ${other.apiKey}`, "idempotency-key": "k", ...headers },
      payload,
    });
    expect(response.statusCode).toBe(401);
    expect(json(response).code).toBe("unauthorized");
  });

  test.each(["bearer", "BEARER", "Bearer"])("the scheme %s is accepted", async (scheme) => {
    const response = await t.post("/v1/invoices", invoiceBody(), { authorization: `${scheme} ${t.apiKey}` });
    expect(response.statusCode).toBe(201);
  });

  test.each([
    ["invalid JSON", { "content-type": "application/json" }, "{not json"],
    ["a wrong content type", { "content-type": "text/plain" }, "hello"],
    ["a 70 KiB body", { "content-type": "application/json" }, JSON.stringify({ pad: "x".repeat(70 * 1024) })],
  ])("401 wins over %s", async (_name, headers, payload) => {
    const response = await t.inject({
      method: "POST",
      url: "/v1/subscriptions",
      headers: { authorization: `Bearer ${badChecksum(t.apiKey)}`, "idempotency-key": "k", ...headers },
      payload,
    });
    expect(response.statusCode).toBe(401);
    expect(json(response).code).toBe("unauthorized");
  });

  test("401 wins over a missing Idempotency-Key", async () => {
    const response = await t.inject({
      method: "POST",
      url: "/v1/subscriptions",
      headers: { authorization: `Bearer ${badChecksum(t.apiKey)}`, "content-type": "application/json" },
      payload: "{}",
    });
    expect(response.statusCode).toBe(401);
    expect(json(response).code).toBe("unauthorized");
  });

  test("401 comes before 404 on an unknown /v1 route", async () => {
    const response = await t.inject({ method: "GET", url: "/v1/nothing-here" });
    expect(response.statusCode).toBe(401);
  });
});
