import { afterAll, describe, expect, it } from "vitest";
import { type Json, until } from "./provider-server.js";
import { startTBankServer } from "./tbank-fixture.js";
import { recordMethodRef } from "./test-artifacts.js";

// Saving SBP through T-Bank (issue 17): the payer binds an account (AddAccountQr, confirmed on the
// emulator's bank-app page), T-Bank notifies the binding, the server asks getPayment, the adapter sees
// GetAddAccountQrState ACTIVE and charges the invoice with Init + ChargeQr; the account is then saved,
// a subscription starts from the invoice, and its renewal is one more ChargeQr.

const DAY_MS = 86_400_000;
const s = await startTBankServer({ storedMethods: ["card", "sbp"] });
const { emulator } = s;
// A binding names no payment, so T-Bank notifies it to the terminal's notification URL: this project's.
emulator.notifyTo(s.notificationUrl);
afterAll(() => s.close());

const chargeQrs = () => emulator.requests.filter((r) => r.method === "ChargeQr" && r.status === 200);

describe("T-Bank SBP saved by an account binding, through the server", () => {
  it("pays the invoice from the bound account, shows the saved SBP, and renews with exactly one ChargeQr", async () => {
    const item = { description: "Подписка", quantity: "1", vatCode: 1, paymentSubject: "service" };
    const receipt = {
      customer: { email: "buyer@example.com" },
      taxSystemCode: 2,
      items: [{ ...item, amount: { amount: "149900", currency: "RUB" }, paymentMode: "full_prepayment" }],
    };
    const invoice = await s.createInvoice({ method: "sbp", savePaymentMethod: true, receipt });
    const chosen = await s.choose(invoice.id, "sbp");
    expect(chosen.status).toBe(303);
    const bindingUrl = new RegExp(`^${emulator.url}/bind/([0-9a-f-]{36})$`).exec(chosen.location);
    expect(bindingUrl).not.toBeNull();
    const requestKey = bindingUrl?.[1] ?? "";
    const init = emulator.requests.find(
      (r) => r.method === "Init" && r.body.OrderId === `b1-${requestKey.replaceAll("-", "")}`,
    )?.body;
    expect(init).toMatchObject({ Amount: 149900, Recurrent: "Y", DATA: { QR: "true" } });
    expect(init?.Receipt).toMatchObject({ Taxation: "usn_income", Items: [{ Price: 149900 }] });
    expect(chargeQrs()).toHaveLength(0);
    expect((await s.get(`/v1/invoices/${invoice.id}`)).status).toBe("created");

    // The payer confirms the binding in the bank app; no money moves until the adapter charges.
    const bound = await fetch(chosen.location, {
      method: "POST",
      body: new URLSearchParams({ outcome: "bind" }),
    });
    expect(bound.status).toBe(200);
    await emulator.deliveries();
    const binding = emulator.notifications.find((n) => n.body.RequestKey === requestKey);
    expect(binding).toMatchObject({ answeredOk: true, body: { Status: "ACTIVE" } });
    const token = String(emulator.accounts.accounts.get(requestKey)?.AccountToken);
    recordMethodRef(token);
    expect(await until(async () => (await s.get(`/v1/invoices/${invoice.id}`)).status === "paid")).toBe(true);
    expect(chargeQrs().map((r) => r.body.AccountToken)).toEqual([token]);
    // The charged payment's own notifications name the binding's payment too, and are answered OK.
    await emulator.deliveries();
    const orderId = `b1-${requestKey.replaceAll("-", "")}`;
    expect(
      emulator.notifications
        .filter((n) => n.body.OrderId === orderId)
        .map((n) => [n.body.Status, n.answeredOk]),
    ).toEqual([
      ["AUTHORIZED", true],
      ["CONFIRMED", true],
    ]);

    const paid = await (
      await fetch(`${s.url}/v1/invoices/${invoice.id}`, { headers: { authorization: `Bearer ${s.apiKey}` } })
    ).text();
    expect(JSON.parse(paid).savedMethod).toEqual({ method: "sbp", methodMask: "СБП · Т-Банк" });
    expect(paid).not.toContain(token);
    const payments = (await s.get(`/v1/payments?invoiceId=${invoice.id}`)).data as Json[];
    expect(payments).toEqual([
      expect.objectContaining({ status: "succeeded", method: "sbp", providerPaymentId: `b1:${requestKey}` }),
    ]);

    // A subscription from the invoice: cycle 1 is the invoice's payment, nothing charged again.
    const created = await s.post("/v1/subscriptions", {
      amount: { amount: "149900", currency: "RUB" },
      period: { unit: "month", count: 1 },
      invoiceId: invoice.id,
    });
    expect(created.status).toBe(201);
    const subscription = (await created.json()) as Json;
    expect(subscription).toMatchObject({ status: "active", cyclesStarted: 1, method: "sbp" });
    expect(chargeQrs()).toHaveLength(1);

    // A month on, the renewal worker charges cycle 2 on the bound account: one Init, one ChargeQr.
    s.time.shift(32 * DAY_MS);
    expect(await s.renewals.runOnce()).toMatchObject({ claimed: 1, charged: 1, pending: 0 });
    expect(await s.renewals.runOnce()).toMatchObject({ claimed: 0, charged: 0 });
    expect(chargeQrs().map((r) => r.body.AccountToken)).toEqual([token, token]);
    const renewal = chargeQrs()[1]?.body.PaymentId;
    expect(emulator.books.payments.get(String(renewal))).toMatchObject({
      Status: "CONFIRMED",
      Amount: 149900,
    });
    const cycles = (await s.get(`/v1/payments?subscriptionId=${subscription.id}`)).data as Json[];
    // Cycle 1 was the invoice's payment (listed with the invoice); cycle 2 is the renewal's.
    expect(cycles.map((p) => [p.cycle, p.status, p.method, p.providerPaymentId])).toEqual([
      [2, "succeeded", "sbp", String(renewal)],
    ]);
    expect(await s.get(`/v1/subscriptions/${subscription.id}`)).toMatchObject({ cyclesStarted: 2 });

    // The invoice's payment, known to Kopek as b1:<RequestKey>, refunded in part: Cancel goes to the
    // order's real T-Bank payment, with the returned part of the receipt.
    const refunded = await s.post(`/v1/payments/${payments[0]?.id}/refunds`, {
      amount: { amount: "50000", currency: "RUB" },
      reason: "part of the month unused",
    });
    expect(refunded.status).toBe(201);
    expect(await refunded.json()).toMatchObject({ status: "succeeded", amount: { amount: "50000" } });
    expect((await s.get(`/v1/payments/${payments[0]?.id}`)).amountRefunded).toEqual({
      amount: "50000",
      currency: "RUB",
    });
    const cancel = emulator.requests.find((r) => r.method === "Cancel" && r.status === 200)?.body;
    expect(cancel).toMatchObject({ PaymentId: String(chargeQrs()[0]?.body.PaymentId), Amount: 50000 });
    expect(cancel?.Receipt).toMatchObject({ Items: [{ Price: 50000, Quantity: 1, Amount: 50000 }] });
    // T-Bank notifies the refund under the order too: answered OK, the refund already settled.
    const refundNotices = () =>
      emulator.notifications.filter(
        (n) => n.body.OrderId === orderId && n.body.Status === "PARTIAL_REFUNDED",
      );
    expect(await until(() => refundNotices().some((n) => n.answeredOk))).toBe(true);
    await emulator.deliveries();
    expect(refundNotices().map((n) => n.answeredOk)).toEqual([true]);
  }, 15_000);
});
