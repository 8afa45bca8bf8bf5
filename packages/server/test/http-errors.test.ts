import type { PaymentProvider } from "@kopek/core";
import { describe, expect, test } from "vitest";
import { createProjectWithKey } from "../src/startup/project-setup.js";
import { buildTestApp, invoiceBody, json, subscriptionBody } from "./helper.js";

// A method the API serves nowhere (PUT, DELETE, QUERY…) is 405, not 404: test/methods.test.ts.
describe("404 not_found", async () => {
  const t = await buildTestApp();

  test.each([
    ["GET", "/v1/nothing"],
    ["POST", "/v1/invoices/extra"],
    ["GET", "/v1/invoices/extra/more"],
    ["GET", "/v1/invoices/0192f3c4-5e6f-7a8b-9c0d-1e2f3a4b5c6d/cancel"],
  ])("%s %s under /v1 (authenticated)", async (method, url) => {
    const response = await t.inject({
      method: method as "GET",
      url,
      headers: {
        authorization: `Bearer ${t.apiKey}`,
        "content-type": "application/json",
        "idempotency-key": "k",
      },
      ...(method === "GET" ? {} : { payload: "{}" }),
    });
    expect(response.statusCode).toBe(404);
    expect(json(response).code).toBe("not_found");
  });

  test("an unknown /v1 route with a body in another media type is still 404", async () => {
    const response = await t.post("/v1/nothing", "hi", { "content-type": "text/plain" });
    expect(response.statusCode).toBe(404);
  });

  test.each(["/v2/invoices", "/", "/invoices", "/V1/invoices", "/%zz"])(
    "%s outside /v1, without authentication",
    async (url) => {
      const response = await t.inject({
        method: "POST",
        url,
        headers: { "content-type": "text/plain" },
        payload: "x",
      });
      expect(response.statusCode).toBe(404);
      expect(response.headers["content-type"]).toBe("application/problem+json");
      expect(response.headers["x-request-id"]).toBeTruthy();
      expect(json(response)).toMatchObject({
        code: "not_found",
        type: "urn:kopek:problem:not_found",
        status: 404,
      });
    },
  );
});

describe("500 internal_error leaks nothing", () => {
  const secret = "boom at /srv/kopek/secret.ts 4111 1111 1111 1111";

  test("a provider that throws", async () => {
    const throwing = (provider: PaymentProvider): PaymentProvider => ({
      ...provider,
      chargeStoredMethod: () => {
        throw new Error(secret);
      },
    });
    const t = await buildTestApp({ wrapProvider: throwing });
    const response = await t.post("/v1/subscriptions", subscriptionBody());
    expect(response.statusCode).toBe(500);
    const body = json(response);
    expect(body).toMatchObject({
      code: "internal_error",
      status: 500,
      requestId: response.headers["x-request-id"],
    });
    expect(response.body).not.toMatch(/boom|secret|srv|4111|stack/);
    const log = t.logLines.join("");
    expect(log).toContain("boom at /srv/kopek/secret.ts");
    expect(log).not.toContain("4111 1111 1111 1111");
  });

  test("a server-side failure outside core", async () => {
    const t = await buildTestApp({
      wrapKopek: (kopek) => ({
        ...kopek,
        handle: async () => {
          throw new Error(secret);
        },
      }),
    });
    const response = await t.post("/v1/invoices", invoiceBody());
    expect(response.statusCode).toBe(500);
    expect(response.headers["content-type"]).toBe("application/problem+json");
    expect(json(response).code).toBe("internal_error");
    expect(response.body).not.toMatch(/boom|secret|srv|4111/);
    expect(t.logLines.join("")).toContain('"level":50');
  });
});

test("429 rate_limited per key, with Retry-After", async () => {
  const t = await buildTestApp({ rateLimitPerSecond: 2 });
  const statuses = [];
  for (let i = 0; i < 3; i++) statuses.push((await t.post("/v1/invoices", invoiceBody())).statusCode);
  expect(statuses).toEqual([201, 201, 429]);
  const limited = await t.post("/v1/invoices", invoiceBody());
  expect(limited.statusCode).toBe(429);
  expect(Number(limited.headers["retry-after"])).toBeGreaterThanOrEqual(1);
  expect(limited.headers["content-type"]).toBe("application/problem+json");
  expect(json(limited)).toMatchObject({ code: "rate_limited", status: 429 });
  // Another key is counted on its own.
  const other = (
    await createProjectWithKey(t.storage, {
      name: "b",
      provider: { kind: "sandbox", storedMethodCharge: true },
    })
  )._unsafeUnwrap();
  const response = await t.post("/v1/invoices", invoiceBody(), { authorization: `Bearer ${other.apiKey}` });
  expect(response.statusCode).toBe(201);
});
