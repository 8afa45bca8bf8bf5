import { describe, expect, test } from "vitest";
import { buildTestApp, json } from "./helper.js";

describe("list query validation: 422 validation_failed with a pointer per parameter", async () => {
  const t = await buildTestApp();

  test.each([
    ["/v1/invoices?limit=0", [{ pointer: "#/limit", code: "too_small" }]],
    ["/v1/invoices?limit=101", [{ pointer: "#/limit", code: "too_large" }]],
    ["/v1/subscriptions?limit=ten", [{ pointer: "#/limit", code: "invalid_type" }]],
    ["/v1/subscriptions?limit=", [{ pointer: "#/limit", code: "invalid_type" }]],
    ["/v1/invoices?limit=1&limit=2", [{ pointer: "#/limit", code: "invalid_type" }]],
    ["/v1/invoices?cursor=bogus", [{ pointer: "#/cursor", code: "invalid_format" }]],
    ["/v1/invoices?status=unpaid", [{ pointer: "#/status", code: "invalid_value" }]],
    ["/v1/subscriptions?status=active", [{ pointer: "#/status", code: "unknown_field" }]],
    ["/v1/invoices?__proto__=1", [{ pointer: "#/__proto__", code: "unknown_field" }]],
    [
      "/v1/invoices?limit=0&cursor=x&status=nope",
      [
        { pointer: "#/limit", code: "too_small" },
        { pointer: "#/cursor", code: "invalid_format" },
        { pointer: "#/status", code: "invalid_value" },
      ],
    ],
  ])("%s", async (url, errors) => {
    const response = await t.get(url);
    expect(response.statusCode).toBe(422);
    expect(response.headers["content-type"]).toBe("application/problem+json");
    const body = json(response);
    expect(body.code).toBe("validation_failed");
    expect(body.errors).toEqual(errors.map((error) => expect.objectContaining(error)));
  });

  test("limit 1 and 100 are accepted", async () => {
    expect((await t.get("/v1/invoices?limit=1")).statusCode).toBe(200);
    expect((await t.get("/v1/subscriptions?limit=100")).statusCode).toBe(200);
  });
});
