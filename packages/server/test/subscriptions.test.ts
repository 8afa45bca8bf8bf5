import type { PaymentProvider } from "@kopek/core";
import { describe, expect, test } from "vitest";
import { buildTestApp, json, subscriptionBody, TIMESTAMP, UUID_V7 } from "./helper.js";

describe("POST /v1/subscriptions", async () => {
  const t = await buildTestApp();

  test("201 with Location and every field of API.md 5.3", async () => {
    const response = await t.post("/v1/subscriptions", subscriptionBody());
    expect(response.statusCode).toBe(201);
    expect(response.headers["content-type"]).toBe("application/json; charset=utf-8");
    const body = json(response);
    expect(response.headers.location).toBe(`/v1/subscriptions/${body.id}`);
    expect(Object.keys(body).sort()).toEqual(
      [
        "amount",
        "receipt",
        "customerId",
        "cancelAt",
        "cancelAtPeriodEnd",
        "pauseAt",
        "trialEnd",
        "cancelReason",
        "canceledAt",
        "createdAt",
        "cyclesStarted",
        "description",
        "id",
        "lastChargedAt",
        "metadata",
        "method",
        "methodMask",
        "nextChargeAt",
        "period",
        "startedAt",
        "status",
      ].sort(),
    );
    expect(body.id).toMatch(UUID_V7);
    expect(body).toMatchObject({
      status: "active",
      amount: { amount: "149900", currency: "RUB" },
      period: { unit: "month", count: 1 },
      method: "card",
      description: "1499.00 RUB every month",
      metadata: {},
      cyclesStarted: 1,
      canceledAt: null,
      cancelReason: null,
      cancelAt: null,
      cancelAtPeriodEnd: false,
      pauseAt: null,
      trialEnd: null,
    });
    expect(body.methodMask).toMatch(/^\d{4} \d{2}\*\* \*{4} \d{4}$/);
    for (const field of ["startedAt", "createdAt", "lastChargedAt", "nextChargeAt"])
      expect(body[field]).toMatch(TIMESTAMP);
    expect(body.createdAt).toBe(body.startedAt);
    expect(body.lastChargedAt).toBe(body.startedAt);
    expect(response.body).not.toContain("providerMethodRef");
    expect(response.body).not.toContain("tok_test_4242");
  });

  test("description and metadata as sent; an 18-digit amount round-trips byte for byte", async () => {
    const response = await t.post(
      "/v1/subscriptions",
      subscriptionBody({
        amount: { amount: "999999999999999999", currency: "USD" },
        description: "Pro plan",
        metadata: { plan: "pro" },
      }),
    );
    expect(response.statusCode).toBe(201);
    expect(response.body).toContain('"amount":{"amount":"999999999999999999","currency":"USD"}');
    expect(json(response)).toMatchObject({ description: "Pro plan", metadata: { plan: "pro" } });
  });

  test("422 validation_failed lists every problem at once", async () => {
    const response = await t.post("/v1/subscriptions", {
      amount: { amount: 100, currency: "rub" },
      period: { unit: "fortnight", count: 0 },
      method: "card",
      providerMethodRef: "4111 1111 1111 1111",
      colour: "red",
    });
    expect(response.statusCode).toBe(422);
    const body = json(response);
    expect(body.code).toBe("validation_failed");
    expect(body.errors.length).toBeGreaterThanOrEqual(5);
    expect(body.errors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ pointer: "#/amount/amount" }),
        expect.objectContaining({ pointer: "#/period/unit" }),
        expect.objectContaining({ pointer: "#/providerMethodRef", code: "card_number_not_allowed" }),
        expect.objectContaining({ pointer: "#/colour", code: "unknown_field" }),
      ]),
    );
    expect(response.body).not.toContain("4111 1111 1111 1111");
  });

  test("402 payment_declined, nothing created, and the refusal is replayed", async () => {
    const headers = { "idempotency-key": "declined" };
    const body = subscriptionBody({ providerMethodRef: "sandbox_decline_1" });
    const response = await t.post("/v1/subscriptions", body, headers);
    expect(response.statusCode).toBe(402);
    expect(json(response).code).toBe("payment_declined");
    const replay = await t.post("/v1/subscriptions", body, headers);
    expect(replay.statusCode).toBe(402);
    expect(replay.headers["idempotent-replayed"]).toBe("true");
    expect(replay.body).toBe(response.body);
  });
});

test("422 method_unavailable without storedMethodCharge: no charge, stored and replayed", async () => {
  const t = await buildTestApp({ storedMethodCharge: false });
  const headers = { "idempotency-key": "no-stored" };
  const response = await t.post("/v1/subscriptions", subscriptionBody(), headers);
  expect(response.statusCode).toBe(422);
  expect(json(response).code).toBe("method_unavailable");
  const replay = await t.post("/v1/subscriptions", subscriptionBody(), headers);
  expect(replay.statusCode).toBe(422);
  expect(replay.headers["idempotent-replayed"]).toBe("true");
  expect(t.ledger.countCharges()).toBe(0);
});

test("503 provider_unavailable is not stored: a retry with the same key executes again", async () => {
  let calls = 0;
  const counting = (provider: PaymentProvider): PaymentProvider => ({
    ...provider,
    describeStoredMethod: (request) => {
      calls++;
      return provider.describeStoredMethod(request);
    },
  });
  const t = await buildTestApp({ wrapProvider: counting });
  const headers = { "idempotency-key": "outage" };
  const body = subscriptionBody({ providerMethodRef: "sandbox_unavailable_1" });
  const first = await t.post("/v1/subscriptions", body, headers);
  expect(first.statusCode).toBe(503);
  expect(json(first).code).toBe("provider_unavailable");
  const retry = await t.post("/v1/subscriptions", body, headers);
  expect(retry.statusCode).toBe(503);
  expect(retry.headers["idempotent-replayed"]).toBeUndefined();
  expect(calls).toBe(2);
});
