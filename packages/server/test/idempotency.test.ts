import type { PaymentProvider } from "@kopek/core";
import { ResultAsync } from "neverthrow";
import { describe, expect, test } from "vitest";
import { buildTestApp, invoiceBody, json, subscriptionBody } from "./helper.js";

describe("Idempotency-Key header (API.md 3)", async () => {
  const t = await buildTestApp();
  const withKey = (key: string) => t.post("/v1/invoices", invoiceBody(), { "idempotency-key": key });

  test("missing: 400 idempotency_key_missing", async () => {
    const response = await t.inject({
      method: "POST",
      url: "/v1/invoices",
      headers: { authorization: `Bearer ${t.apiKey}`, "content-type": "application/json" },
      payload: invoiceBody(),
    });
    expect(response.statusCode).toBe(400);
    expect(json(response).code).toBe("idempotency_key_missing");
  });

  test.each([
    ["empty", ""],
    ["256 characters", "k".repeat(256)],
    ["non-ASCII", "café"],
  ])("%s: 400 idempotency_key_invalid", async (_name, key) => {
    const response = await withKey(key);
    expect(response.statusCode).toBe(400);
    expect(json(response).code).toBe("idempotency_key_invalid");
  });

  test("255 characters is valid", async () => {
    expect((await withKey("k".repeat(255))).statusCode).toBe(201);
  });
});

describe("replays", async () => {
  const t = await buildTestApp();

  test("same key and body: 200, Idempotent-Replayed, byte-identical body, nothing charged again", async () => {
    const headers = { "idempotency-key": "sub-1" };
    const first = await t.post("/v1/subscriptions", subscriptionBody(), headers);
    const again = await t.post("/v1/subscriptions", subscriptionBody(), headers);
    expect(first.statusCode).toBe(201);
    expect(first.headers["idempotent-replayed"]).toBeUndefined();
    expect(again.statusCode).toBe(200);
    expect(again.headers["idempotent-replayed"]).toBe("true");
    expect(again.headers.location).toBe(first.headers.location);
    expect(again.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(again.rawPayload.equals(first.rawPayload)).toBe(true);
    expect(t.ledger.countCharges()).toBe(1);
  });

  test("re-ordered, re-formatted JSON of the same body still replays", async () => {
    const headers = { "idempotency-key": "inv-reorder" };
    const first = await t.post(
      "/v1/invoices",
      '{"amount":{"amount":"500","currency":"USD"},"description":"tea"}',
      headers,
    );
    const again = await t.post(
      "/v1/invoices",
      '{\n  "description" : "tea",\n  "amount" : { "currency" : "USD", "amount" : "500" }\n}',
      headers,
    );
    expect(first.statusCode).toBe(201);
    expect(again.statusCode).toBe(200);
    expect(again.body).toBe(first.body);
  });

  test.each([
    ["another body", "/v1/invoices", invoiceBody({ description: "other" })],
    ["another endpoint", "/v1/subscriptions", subscriptionBody()],
  ])("same key, %s: 422 idempotency_key_reused", async (_name, url, body) => {
    const headers = { "idempotency-key": `reuse-${url}` };
    expect((await t.post("/v1/invoices", invoiceBody(), headers)).statusCode).toBe(201);
    const response = await t.post(url, body, headers);
    expect(response.statusCode).toBe(422);
    expect(json(response).code).toBe("idempotency_key_reused");
  });

  test("keys are scoped to the project", async () => {
    const other = await buildTestApp();
    const headers = { "idempotency-key": "shared-key" };
    expect((await t.post("/v1/invoices", invoiceBody(), headers)).statusCode).toBe(201);
    expect((await other.post("/v1/invoices", invoiceBody({ description: "x" }), headers)).statusCode).toBe(
      201,
    );
  });
});

/** A provider whose charges wait for `release()`; `entered` settles when the first charge starts. */
function gatedProvider() {
  let release!: () => void;
  let entered!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const started = new Promise<void>((resolve) => (entered = resolve));
  const wrap = (provider: PaymentProvider): PaymentProvider => ({
    ...provider,
    chargeStoredMethod: (request) => {
      entered();
      return ResultAsync.fromSafePromise(gate).andThen(() => provider.chargeStoredMethod(request));
    },
  });
  return { wrap, release, started };
}

test("409 idempotency_request_in_progress with Retry-After while the first request runs", async () => {
  const gated = gatedProvider();
  const t = await buildTestApp({ wrapProvider: gated.wrap });
  const headers = { "idempotency-key": "slow" };
  const first = t.post("/v1/subscriptions", subscriptionBody(), headers);
  await gated.started;
  const during = await t.post("/v1/subscriptions", subscriptionBody(), headers);
  expect(during.statusCode).toBe(409);
  expect(during.headers["retry-after"]).toBe("1");
  expect(json(during).code).toBe("idempotency_request_in_progress");
  gated.release();
  expect((await first).statusCode).toBe(201);
  expect((await t.post("/v1/subscriptions", subscriptionBody(), headers)).statusCode).toBe(200);
  expect(t.ledger.countCharges()).toBe(1);
});
