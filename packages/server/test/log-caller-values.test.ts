import { generateApiKey } from "@kopek/core";
import { afterAll, describe, expect, it } from "vitest";
import { buildTestApp, invoiceBody, type TestApp } from "./helper.js";

const t: TestApp = await buildTestApp();
afterAll(() => t.app.close());

const PANS = [
  "4111111111111111",
  "4111 1111 1111 1111",
  "4111-1111-1111-1111",
  "4111.1111.1111.1111",
  "4111_1111_1111_1111",
  "4111:1111:1111:1111",
];
const digitsOf = (text: string) => text.replace(/[^0-9]/g, "");

describe("caller-controlled values never bring a card number or a key into the log", () => {
  it("X-Request-Id holding a card number or an API key is replaced, not echoed or logged", async () => {
    const foreignKey = generateApiKey();
    for (const planted of [...PANS, t.apiKey, foreignKey, `trace-${foreignKey}`, "has space", "a\u00e9"]) {
      for (const [method, url] of [
        ["GET", "/v1/invoices"],
        ["GET", "/healthz"],
        ["GET", `/pay/${encodeURIComponent(planted)}`],
        ["POST", `/provider-events/${encodeURIComponent(planted)}/${encodeURIComponent(foreignKey)}`],
        ["GET", `/v1/nowhere/${encodeURIComponent(planted)}`],
      ] as const) {
        const response = await t.app.inject({
          method,
          url,
          headers: {
            "x-request-id": planted,
            authorization: method === "GET" ? `Bearer ${t.apiKey}` : `Bearer ${planted}`,
            "idempotency-key": planted,
            "user-agent": planted,
            referer: planted,
          },
          ...(method === "POST" ? { payload: { n: planted } } : {}),
        });
        expect(response.headers["x-request-id"]).not.toBe(planted);
        expect(response.body).not.toContain(planted);
      }
      const created = await t.post("/v1/invoices", invoiceBody({ description: planted }), {
        "x-request-id": planted,
      });
      expect(created.headers["x-request-id"]).not.toBe(planted);
    }
    const log = t.logLines.join("");
    expect(log).not.toMatch(/kopek_[0-9A-Za-z]{38}/);
    expect(log).not.toContain(t.apiKey);
    for (const pan of PANS) expect(log).not.toContain(pan);
    expect(digitsOf(log)).not.toContain("4111111111111111");
  });

  it("keeps a safe X-Request-Id as it is", async () => {
    for (const id of ["req-42:abc", "0190a8e4-5b6c-7d8e-9f01-23456789abcd", "trace.1_2"]) {
      const response = await t.app.inject({
        method: "GET",
        url: "/healthz",
        headers: { "x-request-id": id },
      });
      expect(response.headers["x-request-id"]).toBe(id);
    }
  });
});
