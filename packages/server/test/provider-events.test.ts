import { sandboxNotificationOf } from "@kopek/provider-sandbox";
import { describe, expect, test } from "vitest";
import { buildTestApp, json } from "./helper.js";
import { createInvoice, openPage, submit } from "./pay-page.js";

describe("POST /provider-events/{projectId}/{providerKind} (API.md 10.4)", async () => {
  const t = await buildTestApp();

  /** A started payment's sandbox record: the checkout's view of it. */
  async function started() {
    const id = await createInvoice(t);
    const { token } = await openPage(t, id);
    const chosen = await submit(t, id, { token: token ?? "", method: "card" });
    const providerPaymentId = String(chosen.headers.location).split("/").pop() ?? "";
    return { id, providerPaymentId };
  }
  const post = (path: string, body: string) =>
    t.inject({ method: "POST", url: path, headers: { "content-type": "application/json" }, payload: body });
  const path = `/provider-events/${t.project.id}/sandbox`;

  test("a notification is checked with the provider: pending changes nothing, a confirmed payment pays the invoice", async () => {
    const { id, providerPaymentId } = await started();
    const checkout = t.checkout;
    const payment = checkout.find(providerPaymentId);
    if (payment === null) throw new Error("no sandbox payment");
    expect(payment.notificationUrl).toBe(`https://pay.example.test${path}`);
    const body = sandboxNotificationOf(payment).body;
    const early = await post(path, body);
    expect(early.statusCode).toBe(200);
    expect(early.body).toBe("OK");
    expect(json(await t.get(`/v1/invoices/${id}`)).status).toBe("created");
    checkout.decide(providerPaymentId, "succeed");
    expect((await post(path, body)).statusCode).toBe(200);
    expect((await post(path, body)).statusCode).toBe(200);
    expect(json(await t.get(`/v1/invoices/${id}`)).status).toBe("paid");
  });

  test("refusals change nothing and are logged", async () => {
    const { id, providerPaymentId } = await started();
    t.checkout.decide(providerPaymentId, "succeed");
    const body = JSON.stringify({ event: "payment.updated", providerPaymentId });
    expect((await post(`/provider-events/${t.project.id}/yookassa`, body)).statusCode).toBe(404);
    expect(
      (await post("/provider-events/0192f3c4-5e6f-7a8b-9c0d-1e2f3a4b5c6d/sandbox", body)).statusCode,
    ).toBe(404);
    expect((await post(path, "status=succeeded")).statusCode).toBe(400);
    const unknown = JSON.stringify({ event: "payment.updated", providerPaymentId: `pay_${"0".repeat(32)}` });
    expect((await post(path, unknown)).statusCode).toBe(404);
    expect(json(await t.get(`/v1/invoices/${id}`)).status).toBe("created");
    expect(
      t.logLines.filter((line) => line.includes("provider notification refused")).length,
    ).toBeGreaterThanOrEqual(4);
    expect(t.logLines.some((line) => line.includes("status=succeeded"))).toBe(false);
  });
});
