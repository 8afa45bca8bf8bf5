import { randomUUID } from "node:crypto";
import { manualClock } from "@kopek/testing";
import { describe, expect, test } from "vitest";
import { buildTestApp, invoiceBody, json, subscriptionBody, TIMESTAMP } from "./helper.js";

const HOUR_MS = 3_600_000;

describe("POST /v1/{subscriptions,invoices}/{id}/cancel", async () => {
  const clock = manualClock(new Date());
  const t = await buildTestApp({ clock });
  const cancel = (path: string, key = randomUUID(), payload?: string, contentType?: string) =>
    t.inject({
      method: "POST",
      url: `${path}/cancel`,
      headers: {
        authorization: `Bearer ${t.apiKey}`,
        "idempotency-key": key,
        ...(contentType === undefined ? {} : { "content-type": contentType }),
      },
      ...(payload === undefined ? {} : { payload }),
    });
  const newSubscription = async () =>
    `/v1/subscriptions/${json(await t.post("/v1/subscriptions", subscriptionBody())).id}`;
  const newInvoice = async (overrides = {}) =>
    `/v1/invoices/${json(await t.post("/v1/invoices", invoiceBody(overrides))).id}`;

  test("200: canceled now, with canceledAt and cancelReason requested; GET agrees", async () => {
    const path = await newSubscription();
    const response = await cancel(path, randomUUID(), "{}", "application/json");
    expect(response.statusCode).toBe(200);
    const body = json(response);
    expect(body).toMatchObject({ status: "canceled", cancelReason: "requested" });
    expect(body.canceledAt).toMatch(TIMESTAMP);
    expect(json(await t.get(path))).toEqual(body);
  });

  test("the same key replays the first answer byte for byte; a new key is 409 invalid_state", async () => {
    const path = await newSubscription();
    const key = randomUUID();
    const first = await cancel(path, key);
    const replay = await cancel(path, key);
    expect(replay.statusCode).toBe(200);
    expect(replay.headers["idempotent-replayed"]).toBe("true");
    expect(replay.body).toBe(first.body);
    const again = await cancel(path);
    expect(again.statusCode).toBe(409);
    expect(json(again).code).toBe("invalid_state");
  });

  test.each([
    ["no body and no Content-Type", undefined, undefined],
    ["an empty application/json body", "", "application/json"],
    ["an empty application/json; charset=utf-8 body", "", "application/json; charset=utf-8"],
  ])("%s is a cancel without a body", async (_name, payload, contentType) => {
    const response = await cancel(await newInvoice(), randomUUID(), payload, contentType);
    expect(response.statusCode).toBe(200);
    expect(json(response)).toMatchObject({ status: "canceled" });
  });

  test.each([
    ["a field", '{"reason":"x"}', "application/json", 422, "validation_failed"],
    ["invalid JSON", "{", "application/json", 400, "invalid_json"],
    ["a text/plain body", "please", "text/plain", 415, "unsupported_media_type"],
  ])("a body with %s is refused", async (_name, payload, contentType, status, code) => {
    const response = await cancel(await newInvoice(), randomUUID(), payload, contentType);
    expect(response.statusCode).toBe(status);
    expect(json(response).code).toBe(code);
  });

  test("Idempotency-Key is required", async () => {
    const path = await newInvoice();
    const response = await t.inject({
      method: "POST",
      url: `${path}/cancel`,
      headers: { authorization: `Bearer ${t.apiKey}` },
    });
    expect(response.statusCode).toBe(400);
    expect(json(response).code).toBe("idempotency_key_missing");
    expect(json(await t.get(path)).status).toBe("created");
  });

  test("404 for an unknown or malformed id", async () => {
    for (const path of ["/v1/invoices/0192f3c4-5e6f-7a8b-9c0d-1e2f3a4b5c6d", "/v1/subscriptions/nope"]) {
      const response = await cancel(path);
      expect(response.statusCode).toBe(404);
      expect(json(response).code).toBe("not_found");
    }
  });

  test("an invoice past expiresAt reads as expired at once and cannot be canceled (409)", async () => {
    const expiresAt = new Date(clock.now().getTime() + HOUR_MS).toISOString();
    const path = await newInvoice({ expiresAt });
    clock.advance(HOUR_MS);
    expect(json(await t.get(path)).status).toBe("expired");
    expect(json(await t.get("/v1/invoices?status=expired")).data).toHaveLength(1);
    const response = await cancel(path);
    expect(response.statusCode).toBe(409);
    expect(json(response)).toMatchObject({ code: "invalid_state" });
    expect(json(response).detail).toContain("expired");
  });
});
