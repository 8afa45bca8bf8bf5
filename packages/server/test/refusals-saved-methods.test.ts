import { describe, expect, it } from "vitest";
import { createProjectWithKey } from "../src/startup/project-setup.js";
import { buildTestApp, invoiceBody, json, type TestApp } from "./helper.js";
import { payAtSandbox } from "./pay-page.js";
import { expectProblem } from "./problem-assertions.js";

// Every refusal of API.md 10.5 (saved methods, subscriptions from a paid invoice) through the server:
// the documented status, code and a detail that says why, and nothing half-done left behind — no
// invoice or subscription stored, nothing charged at the provider.

const MONTHLY = { amount: { amount: "149900", currency: "RUB" }, period: { unit: "month", count: 1 } };

async function count(t: TestApp, path: string): Promise<number> {
  return (json(await t.get(path)).data as unknown[]).length;
}

/** An invoice paid at the sandbox's checkout (saving the card when `save`), and its id. */
async function paidInvoice(t: TestApp, body: Record<string, unknown> = {}, save = true) {
  const created = await t.post("/v1/invoices", invoiceBody({ savePaymentMethod: save, ...body }));
  const id = json(created).id as string;
  await payAtSandbox(t, id, "card");
  expect(json(await t.get(`/v1/invoices/${id}`)).status).toBe("paid");
  return id;
}

describe("savePaymentMethod refusals (API.md 10.5)", () => {
  it("a pinned method the provider cannot save: 422 method_unavailable, no invoice stored", async () => {
    const t = await buildTestApp({
      wrapProvider: (p) => ({ ...p, capabilities: { ...p.capabilities, saveMethod: ["card"] } }),
    });
    const refused = await t.post("/v1/invoices", invoiceBody({ savePaymentMethod: true, method: "sbp" }));
    expect(expectProblem(refused, 422, "method_unavailable").detail).toMatch(/sbp/);
    // A provider that saves nothing: no method left for the page either.
    const none = await buildTestApp({
      wrapProvider: (p) => ({ ...p, capabilities: { ...p.capabilities, saveMethod: [] } }),
    });
    expectProblem(
      await none.post("/v1/invoices", invoiceBody({ savePaymentMethod: true })),
      422,
      "method_unavailable",
    );
    expect(await count(t, "/v1/invoices")).toBe(0);
    expect(await count(none, "/v1/invoices")).toBe(0);
  });
});

describe("subscriptions from an invoice: refusals (API.md 10.5)", () => {
  it("422 invoice_not_usable, saying why: unknown, another project's, not paid, paid without a saved method, another amount", async () => {
    const t = await buildTestApp();
    const other = (
      await createProjectWithKey(t.storage, {
        name: "other",
        provider: { kind: "sandbox", storedMethodCharge: true },
      })
    )._unsafeUnwrap();
    const othersInvoice = await t.app.inject({
      method: "POST",
      url: "/v1/invoices",
      headers: {
        authorization: `Bearer ${other.apiKey}`,
        "content-type": "application/json",
        "idempotency-key": "others-invoice",
      },
      payload: JSON.stringify(invoiceBody({ savePaymentMethod: true })),
    });
    const unpaid = json(await t.post("/v1/invoices", invoiceBody({ savePaymentMethod: true }))).id;
    const unsaved = await paidInvoice(t, {}, false);
    const saved = await paidInvoice(t);
    const chargesBefore = t.ledger.countCharges();
    const cases: [string, Record<string, unknown>, RegExp][] = [
      ["unknown", { invoiceId: crypto.randomUUID() }, /no invoice .* in this project/],
      ["another project's", { invoiceId: json(othersInvoice).id }, /no invoice .* in this project/],
      ["not paid", { invoiceId: unpaid }, /is created, not paid/],
      ["no saved method", { invoiceId: unsaved }, /no saved method/],
      [
        "another amount",
        { invoiceId: saved, amount: { amount: "149800", currency: "RUB" } },
        /amount \(149900 RUB\) differs/,
      ],
    ];
    for (const [why, body, detail] of cases) {
      const refused = await t.post("/v1/subscriptions", { ...MONTHLY, ...body });
      expect(json(refused).code, `${why}: ${refused.body}`).toBe("invoice_not_usable");
      expect(expectProblem(refused, 422, "invoice_not_usable").detail, why).toMatch(detail);
    }
    expect(await count(t, "/v1/subscriptions")).toBe(0);
    expect(t.ledger.countCharges()).toBe(chargesBefore);
  });

  it("409 invoice_already_used for a second subscription: one subscription, no charge", async () => {
    const t = await buildTestApp();
    const invoiceId = await paidInvoice(t);
    const first = await t.post("/v1/subscriptions", { ...MONTHLY, invoiceId });
    expect(first.statusCode).toBe(201);
    const second = await t.post("/v1/subscriptions", { ...MONTHLY, invoiceId });
    expect(expectProblem(second, 409, "invoice_already_used").detail).toContain(invoiceId);
    expect(await count(t, "/v1/subscriptions")).toBe(1);
    expect(t.ledger.countCharges()).toBe(0);
  });

  it("invoiceId together with method and providerMethodRef: 422 validation_failed, nothing stored", async () => {
    const t = await buildTestApp();
    const invoiceId = await paidInvoice(t);
    const both = await t.post("/v1/subscriptions", {
      ...MONTHLY,
      invoiceId,
      method: "card",
      providerMethodRef: "tok_test_4242",
    });
    const problem = expectProblem(both, 422, "validation_failed");
    expect(problem.errors).toEqual([
      expect.objectContaining({ pointer: "#/method", code: "mutually_exclusive" }),
      expect.objectContaining({ pointer: "#/providerMethodRef", code: "mutually_exclusive" }),
    ]);
    expect(await count(t, "/v1/subscriptions")).toBe(0);
    expect(t.ledger.countCharges()).toBe(0);
  });
});
