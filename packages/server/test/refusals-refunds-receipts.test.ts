import { describe, expect, it } from "vitest";
import { buildTestApp, invoiceBody, json, subscriptionBody, type TestApp } from "./helper.js";
import { payAtSandbox } from "./pay-page.js";
import { expectProblem } from "./problem-assertions.js";

// Every refusal of API.md 10.6 (refunds) and 10.7 (receipts) through the server: the documented
// status, code and pointer, and nothing half-done left behind — no refund, invoice or subscription
// stored, the payment's amountRefunded unmoved, nothing charged or refunded at the provider.

const count = async (t: TestApp, path: string) => (json(await t.get(path)).data as unknown[]).length;

/** The payment of an invoice paid (or, with "decline", declined) at the sandbox's checkout. */
async function checkoutPayment(t: TestApp, decision: "succeed" | "decline" = "succeed") {
  const id = json(await t.post("/v1/invoices", invoiceBody())).id as string;
  await payAtSandbox(t, id, "card", decision);
  const [payment] = json(await t.get(`/v1/payments?invoiceId=${id}`)).data;
  return payment as { id: string; status: string };
}

const refund = (t: TestApp, paymentId: string, body: unknown) =>
  t.post(`/v1/payments/${paymentId}/refunds`, body);

describe("refund refusals (API.md 10.6)", () => {
  it("409 invalid_state for a payment that did not succeed: no refund", async () => {
    const t = await buildTestApp();
    const payment = await checkoutPayment(t, "decline");
    expect(payment.status).toBe("canceled");
    expect(expectProblem(await refund(t, payment.id, {}), 409, "invalid_state").detail).toMatch(/canceled/);
    expect(await count(t, `/v1/refunds?paymentId=${payment.id}`)).toBe(0);
  });

  it("422 refund_exceeds_payment beyond what remains, in another currency, and once all is refunded", async () => {
    const t = await buildTestApp();
    const payment = await checkoutPayment(t);
    const over = await refund(t, payment.id, { amount: { amount: "149901", currency: "RUB" } });
    expect(expectProblem(over, 422, "refund_exceeds_payment").detail).toMatch(/at most 149900 RUB/);
    const currency = await refund(t, payment.id, { amount: { amount: "100", currency: "EUR" } });
    expect(expectProblem(currency, 422, "refund_exceeds_payment").detail).toMatch(/in RUB/);
    expect(await count(t, `/v1/refunds?paymentId=${payment.id}`)).toBe(0);
    expect(json(await t.get(`/v1/payments/${payment.id}`)).amountRefunded.amount).toBe("0");

    expect((await refund(t, payment.id, {})).statusCode).toBe(201);
    const nothing = await refund(t, payment.id, { amount: { amount: "1", currency: "RUB" } });
    expect(expectProblem(nothing, 422, "refund_exceeds_payment").detail).toMatch(/nothing remains/);
    expect(await count(t, `/v1/refunds?paymentId=${payment.id}`)).toBe(1);
    expect(json(await t.get(`/v1/payments/${payment.id}`)).amountRefunded.amount).toBe("149900");
  });

  it("404 for an unknown payment; 422 validation_failed at #/reason and #/amount/amount", async () => {
    const t = await buildTestApp();
    expectProblem(await refund(t, crypto.randomUUID(), {}), 404, "not_found");
    const payment = await checkoutPayment(t);
    const bad = await refund(t, payment.id, {
      reason: "x".repeat(501),
      amount: { amount: "-1", currency: "RUB" },
    });
    const problem = expectProblem(bad, 422, "validation_failed");
    expect(problem.errors.map((e: { pointer: string }) => e.pointer).sort()).toEqual([
      "#/amount/amount",
      "#/reason",
    ]);
    expect(await count(t, `/v1/refunds?paymentId=${payment.id}`)).toBe(0);
  });
});

const item = (amount: string, quantity = "1") => ({
  description: "Coffee",
  quantity,
  amount: { amount, currency: "RUB" },
  vatCode: 1,
  paymentSubject: "commodity",
  paymentMode: "full_payment",
});
const receipt = (items: unknown[], customer: unknown = { email: "payer@example.test" }) => ({
  customer,
  items,
});

describe("receipt refusals (API.md 10.7), on invoices and subscriptions alike", () => {
  const creates = [
    { name: "invoice", path: "/v1/invoices", body: invoiceBody },
    { name: "subscription", path: "/v1/subscriptions", body: subscriptionBody },
  ];

  it.each(creates)(
    "$name: each 422 validation_failed at its pointer; nothing stored, nothing charged",
    async (create) => {
      const t = await buildTestApp();
      const cases: [unknown, string, string][] = [
        [receipt([item("100000"), item("49800")]), "#/receipt/items", "receipt_total_mismatch"],
        [receipt([item("149900")], {}), "#/receipt/customer", "required"],
        [receipt([item("100", "0.333")]), "#/receipt/items/0", "invalid_value"],
        [
          receipt([{ ...item("149900"), amount: { amount: "149900", currency: "EUR" } }]),
          "#/receipt/items/0/amount/currency",
          "",
        ],
        [receipt([]), "#/receipt/items", ""],
        [receipt([{ ...item("149900"), vatCode: 13 }]), "#/receipt/items/0/vatCode", ""],
      ];
      for (const [body, pointer, code] of cases) {
        const refused = await t.post(create.path, create.body({ receipt: body }));
        const problem = expectProblem(refused, 422, "validation_failed");
        const at = problem.errors.find((e: { pointer: string }) => e.pointer === pointer);
        expect(at, `${pointer}: ${refused.body}`).toBeDefined();
        if (code !== "") expect(at.code).toBe(code);
      }
      expect(await count(t, create.path)).toBe(0);
      expect(t.ledger.countCharges()).toBe(0);
    },
  );

  it.each(creates)(
    "$name on a provider that takes no receipts: 422 method_unavailable, nothing stored",
    async (create) => {
      const t = await buildTestApp({
        wrapProvider: (p) => ({ ...p, capabilities: { ...p.capabilities, receipts: false } }),
      });
      const refused = await t.post(create.path, create.body({ receipt: receipt([item("149900")]) }));
      expect(expectProblem(refused, 422, "method_unavailable").detail).toMatch(/receipts/);
      expect(await count(t, create.path)).toBe(0);
      expect(t.ledger.countCharges()).toBe(0);
    },
  );
});
