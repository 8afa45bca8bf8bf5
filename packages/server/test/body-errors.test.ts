import { describe, expect, test } from "vitest";
import { buildTestApp, invoiceBody, json } from "./helper.js";

describe("request bodies (API.md 4)", async () => {
  const t = await buildTestApp();

  test.each([
    ["unparseable JSON", '{"amount":'],
    ["an empty body", ""],
    ["a trailing comma", '{"amount":{"amount":"1","currency":"RUB"},}'],
  ])("400 invalid_json for %s", async (_name, payload) => {
    const response = await t.post("/v1/invoices", payload);
    expect(response.statusCode).toBe(400);
    expect(response.headers["content-type"]).toBe("application/problem+json");
    expect(json(response)).toMatchObject({ code: "invalid_json", status: 400 });
  });

  test("413 payload_too_large for a 70 KiB body", async () => {
    const response = await t.post("/v1/invoices", invoiceBody({ description: "x".repeat(70 * 1024) }));
    expect(response.statusCode).toBe(413);
    expect(json(response)).toMatchObject({ code: "payload_too_large", status: 413 });
    expect(json(response).detail).toContain("65536");
  });

  test.each(["text/plain", "application/x-www-form-urlencoded", "application/xml", "application/jsonx"])(
    "415 unsupported_media_type for %s",
    async (contentType) => {
      const response = await t.post("/v1/invoices", JSON.stringify(invoiceBody()), {
        "content-type": contentType,
      });
      expect(response.statusCode).toBe(415);
      expect(json(response)).toMatchObject({ code: "unsupported_media_type", status: 415 });
    },
  );

  test.each([
    "application/json",
    "application/json; charset=utf-8",
    "application/json;charset=UTF-8",
    "Application/JSON",
  ])("%s is accepted", async (contentType) => {
    const response = await t.post("/v1/invoices", invoiceBody(), { "content-type": contentType });
    expect(response.statusCode).toBe(201);
  });

  test("a __proto__ key is an unknown field, not a parse error", async () => {
    const response = await t.post(
      "/v1/invoices",
      '{"amount":{"amount":"100","currency":"RUB"},"__proto__":{"x":1}}',
    );
    expect(response.statusCode).toBe(422);
    expect(json(response).errors).toContainEqual(
      expect.objectContaining({ pointer: "#/__proto__", code: "unknown_field" }),
    );
  });
});
