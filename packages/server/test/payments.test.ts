import { describe, expect, test } from "vitest";
import { buildTestApp, json, subscriptionBody, TIMESTAMP, UUID_V7 } from "./helper.js";
import { createInvoice, payAtSandbox } from "./pay-page.js";

describe("GET /v1/payments over HTTP (API.md 10.2)", async () => {
  const t = await buildTestApp();

  test("a subscription's first charge is a succeeded payment of cycle 1", async () => {
    const subscription = json(await t.post("/v1/subscriptions", subscriptionBody()));
    const listed = await t.get(`/v1/payments?subscriptionId=${subscription.id}`);
    expect(listed.statusCode).toBe(200);
    const { data, nextCursor } = json(listed);
    expect(nextCursor).toBeNull();
    expect(data).toEqual([
      {
        id: expect.stringMatching(UUID_V7),
        status: "succeeded",
        amount: subscription.amount,
        amountRefunded: { amount: "0", currency: subscription.amount.currency },
        method: subscription.method,
        methodMask: subscription.methodMask,
        invoiceId: null,
        subscriptionId: subscription.id,
        cycle: 1,
        kind: "cycle",
        provider: "sandbox",
        providerPaymentId: expect.any(String),
        failureCode: null,
        createdAt: subscription.createdAt,
        succeededAt: subscription.createdAt,
        canceledAt: null,
        customerId: null,
      },
    ]);
    const one = await t.get(`/v1/payments/${data[0].id}`);
    expect(one.statusCode).toBe(200);
    expect(json(one)).toEqual(data[0]);
  });

  test("the hosted page's declined and succeeded attempts are payments of the invoice", async () => {
    const id = await createInvoice(t);
    expect((await payAtSandbox(t, id, "card", "decline")).returned?.statusCode).toBe(200);
    expect((await payAtSandbox(t, id, "sbp")).returned?.statusCode).toBe(200);
    const { data } = json(await t.get(`/v1/payments?invoiceId=${id}`));
    expect(data.map((p: Record<string, unknown>) => [p.status, p.method, p.failureCode])).toEqual([
      ["succeeded", "sbp", null],
      ["canceled", "card", "payment_declined"],
    ]);
    expect(data[0].providerPaymentId).toMatch(/^pay_/);
    expect(data[0].succeededAt).toMatch(TIMESTAMP);
    expect(json(await t.get(`/v1/invoices/${id}`)).paidAt).toBe(data[0].succeededAt);
  });

  test("422 for a malformed filter, 404 for an unknown payment, 401 without a key", async () => {
    const bad = await t.get("/v1/payments?invoiceId=123&status=paid");
    expect(bad.statusCode).toBe(422);
    expect(
      json(bad)
        .errors.map((e: { pointer: string }) => e.pointer)
        .sort(),
    ).toEqual(["#/invoiceId", "#/status"]);
    expect((await t.get("/v1/payments/0192f3c4-5e6f-7a8b-9c0d-1e2f3a4b5c6d")).statusCode).toBe(404);
    expect((await t.app.inject({ method: "GET", url: "/v1/payments" })).statusCode).toBe(401);
  });
});
