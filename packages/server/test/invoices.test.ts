import { describe, expect, test } from "vitest";
import { buildTestApp, invoiceBody, json, PUBLIC_URL, TIMESTAMP, UUID_V7 } from "./helper.js";

describe("POST /v1/invoices", async () => {
  const t = await buildTestApp();

  test("201 with Location and every field of API.md 5.4", async () => {
    const response = await t.post("/v1/invoices", invoiceBody());
    expect(response.statusCode).toBe(201);
    const body = json(response);
    expect(response.headers.location).toBe(`/v1/invoices/${body.id}`);
    expect(Object.keys(body).sort()).toEqual(
      [
        "amount",
        "attempts",
        "maxAttempts",
        "receipt",
        "customerId",
        "canceledAt",
        "comment",
        "createdAt",
        "customer",
        "description",
        "expiresAt",
        "id",
        "metadata",
        "method",
        "paidAt",
        "paymentUrl",
        "pinnedMethod",
        "returnUrl",
        "savedMethod",
        "status",
      ].sort(),
    );
    expect(body.id).toMatch(UUID_V7);
    expect(body).toMatchObject({
      status: "created",
      amount: { amount: "149900", currency: "RUB" },
      description: "Invoice for 1499.00 RUB",
      comment: null,
      customer: null,
      metadata: {},
      paymentUrl: `${PUBLIC_URL}/pay/${t.project.id}/${body.id}`,
      returnUrl: null,
      method: null,
      pinnedMethod: null,
      paidAt: null,
      canceledAt: null,
    });
    expect(body.createdAt).toMatch(TIMESTAMP);
    expect(body.expiresAt).toMatch(TIMESTAMP);
    expect(Date.parse(body.expiresAt) - Date.parse(body.createdAt)).toBe(24 * 60 * 60 * 1000);
  });

  test("fields as sent, customer with nulls filled in", async () => {
    const response = await t.post(
      "/v1/invoices",
      invoiceBody({
        description: "Order 42",
        comment: "gift wrap",
        customer: { email: "ann@example.com" },
        metadata: { order: "42" },
        returnUrl: "https://shop.example/thanks",
      }),
    );
    expect(response.statusCode).toBe(201);
    expect(json(response)).toMatchObject({
      description: "Order 42",
      comment: "gift wrap",
      customer: { email: "ann@example.com", phone: null, externalId: null },
      metadata: { order: "42" },
      returnUrl: "https://shop.example/thanks",
    });
  });

  test.each([
    [{ method: "sbp" }, "sbp"],
    [{ methods: ["card"] }, "card"],
    [{ methods: ["card", "sbp"] }, null],
    [{}, null],
  ])("pinnedMethod for %j is %s", async (fields, pinned) => {
    const response = await t.post("/v1/invoices", invoiceBody(fields));
    expect(response.statusCode).toBe(201);
    expect(json(response).pinnedMethod).toBe(pinned);
  });

  test("an 18-digit amount round-trips byte for byte", async () => {
    const response = await t.post(
      "/v1/invoices",
      invoiceBody({ amount: { amount: "123456789012345678", currency: "EUR" } }),
    );
    expect(response.statusCode).toBe(201);
    expect(response.body).toContain('"amount":{"amount":"123456789012345678","currency":"EUR"}');
  });

  test("422 with mutually_exclusive among several errors", async () => {
    const response = await t.post("/v1/invoices", {
      amount: { amount: "0100", currency: "XXX" },
      method: "card",
      methods: ["card"],
      returnUrl: "ftp://nope",
    });
    expect(response.statusCode).toBe(422);
    const { errors } = json(response);
    expect(errors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ pointer: "#/methods", code: "mutually_exclusive" }),
        expect.objectContaining({ pointer: "#/amount/amount" }),
        expect.objectContaining({ pointer: "#/returnUrl" }),
      ]),
    );
  });
});
