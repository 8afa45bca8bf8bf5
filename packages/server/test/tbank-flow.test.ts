import { encodedRefOf, signed } from "@kopek/provider-tbank";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Json, until } from "./provider-server.js";
import { startTBankServer, type TBankServer, tbankPaymentIdOf } from "./tbank-fixture.js";

// The reference server paying an invoice through @kopek/provider-tbank against the T-Bank emulator, over
// real HTTP (issue 17): the page's form, the emulator's checkout, its Token-signed notification to
// /provider-events/{projectId}/tbank answered OK, the payer's return. Memory storage: the PostgreSQL
// paths are the provider-independent ones the YooKassa flow already covers. The checkout →
// subscription → renewal → refund walk runs on T-Bank in checkout-subscription-e2e.test.ts.

let s: TBankServer;
beforeAll(async () => {
  s = await startTBankServer();
});
afterAll(() => s.close());

const invoiceStatus = async (id: string) => (await s.get(`/v1/invoices/${id}`)).status as string;
const hookTypesOf = (invoiceId: string) =>
  s.receiver.received
    .filter((hook) => hook.body.includes(invoiceId))
    .map((hook) => (JSON.parse(hook.body) as { type: string }).type);
const notify = (body: unknown) =>
  fetch(s.notificationUrl, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });

/** The payer pays at the emulator's checkout and is sent back; T-Bank's notifications are then delivered. */
async function payAt(confirmationUrl: string) {
  expect(await s.payAt(confirmationUrl)).toBe(303);
}

/** The payer chooses a card on Kopek's page and pays; answers T-Bank's PaymentId. */
async function payByCard(invoiceId: string): Promise<string> {
  const chosen = await s.choose(invoiceId, "card");
  await payAt(chosen.location);
  return tbankPaymentIdOf(chosen.location);
}

/** A one-item receipt of 1 499.00 RUB under `taxSystemCode`. */
const subscriptionReceipt = (taxSystemCode: number) => ({
  customer: { email: "buyer@example.com" },
  taxSystemCode,
  items: [
    {
      description: "Подписка",
      quantity: "1",
      vatCode: 1,
      paymentSubject: "service",
      amount: { amount: "149900", currency: "RUB" },
      paymentMode: "full_prepayment",
    },
  ],
});
const createInvoice = (more: Json = {}) =>
  s.createInvoice({ returnUrl: `${s.receiver.url}/return?order=7`, ...more }) as Promise<{ id: string }>;

describe("T-Bank through the server", () => {
  it("pays an invoice by card: page → PaymentURL → pay → Token-signed notification answered OK → paid", async () => {
    const invoice = await createInvoice();
    const chosen = await s.choose(invoice.id, "card");
    expect(chosen.status).toBe(303);
    expect(chosen.location).toMatch(new RegExp(`^${s.emulator.url}/new/[0-9]+$`));
    const paymentId = tbankPaymentIdOf(chosen.location);
    const created = s.emulator.books.payments.get(paymentId);
    expect(created).toMatchObject({ Amount: 149900, Status: "NEW" });
    expect(created?.NotificationURL).toBe(s.notificationUrl);
    expect(await invoiceStatus(invoice.id)).toBe("created");

    await payAt(chosen.location);
    const mine = s.emulator.notifications.filter((n) => String(n.body.PaymentId) === paymentId);
    expect(mine.map((n) => [n.body.Status, n.answeredOk])).toEqual([
      ["AUTHORIZED", true],
      ["CONFIRMED", true],
    ]);
    expect(await until(async () => (await invoiceStatus(invoice.id)) === "paid")).toBe(true);
    const payments = (await s.get(`/v1/payments?invoiceId=${invoice.id}`)) as {
      data: unknown[];
    };
    expect(payments.data).toEqual([
      expect.objectContaining({
        status: "succeeded",
        method: "card",
        provider: "tbank",
        providerPaymentId: paymentId,
      }),
    ]);
    // Only one Init for the attempt: the idempotency of the page's choice held.
    expect(
      s.emulator.requests.filter((r) => r.method === "Init" && r.body.OrderId === created?.OrderId),
    ).toHaveLength(1);
  });

  it("pays by SBP through the GetQr link", async () => {
    const invoice = await createInvoice();
    const chosen = await s.choose(invoice.id, "sbp");
    expect(chosen.location).toMatch(new RegExp(`^${s.emulator.url}/qr/[0-9]+$`));
    await payAt(chosen.location);
    expect(await until(async () => (await invoiceStatus(invoice.id)) === "paid")).toBe(true);
  });

  it("refuses a notification with a forged Token and changes nothing", async () => {
    const invoice = await createInvoice();
    const chosen = await s.choose(invoice.id, "card");
    const paymentId = tbankPaymentIdOf(chosen.location);
    const forged = {
      ...signed(
        {
          TerminalKey: s.emulator.terminalKey,
          PaymentId: Number(paymentId),
          Status: "CONFIRMED",
          Success: true,
          ErrorCode: "0",
          Amount: 149900,
        },
        "not-the-password",
      ),
    };
    const reads = () =>
      s.emulator.requests.filter((r) => r.method === "GetState" && String(r.body.PaymentId) === paymentId)
        .length;
    const readsBefore = reads();
    const answer = await notify(forged);
    expect(await answer.text()).not.toBe("OK");
    expect(answer.status).toBeGreaterThanOrEqual(400);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await invoiceStatus(invoice.id)).toBe("created");
    expect(s.emulator.books.payments.get(paymentId)?.Status).toBe("NEW");
    // Refused before anything was asked of T-Bank, no event, and logged (without the body).
    expect(reads()).toBe(readsBefore);
    expect(hookTypesOf(invoice.id)).toEqual([]);
    const logged = s.logLines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(logged).toContainEqual(
      expect.objectContaining({
        msg: "provider notification refused",
        projectId: s.project.id,
        providerKind: "tbank",
      }),
    );
    expect(s.logLines.join("")).not.toContain(forged.Token);
  });

  it("answers a replayed genuine notification OK and changes nothing twice: no second event, no state change", async () => {
    const invoice = await createInvoice();
    const paymentId = await payByCard(invoice.id);
    expect(await until(async () => (await invoiceStatus(invoice.id)) === "paid")).toBe(true);
    expect(await until(() => hookTypesOf(invoice.id).length > 0)).toBe(true);
    const read = async () => ({
      invoice: await s.get(`/v1/invoices/${invoice.id}`),
      payments: await s.get(`/v1/payments?invoiceId=${invoice.id}`),
    });
    const before = await read();
    // T-Bank repeats a notification until it gets OK: every genuine one, twice more.
    const genuine = s.emulator.notifications.filter((n) => String(n.body.PaymentId) === paymentId);
    expect(genuine.map((n) => n.body.Status)).toEqual(["AUTHORIZED", "CONFIRMED"]);
    for (const sent of [...genuine, ...genuine]) {
      const replay = await notify(sent.body);
      expect([replay.status, await replay.text()]).toEqual([200, "OK"]);
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(hookTypesOf(invoice.id)).toEqual(["invoice.paid"]);
    expect(await read()).toEqual(before);
  });

  it("refuses at creation (422) an invoice whose receipt's taxSystemCode T-Bank cannot take: 4, envd", async () => {
    const receipt = subscriptionReceipt(4);
    const refused = await s.post("/v1/invoices", {
      amount: { amount: "149900", currency: "RUB" },
      returnUrl: `${s.receiver.url}/return?order=7`,
      receipt,
    });
    expect(refused.status).toBe(422);
    expect(await refused.text()).toContain("taxSystemCode 4");
  });

  it("saves the card of an invoice with a receipt and starts a subscription from it without a new charge", async () => {
    const receipt = subscriptionReceipt(2);
    const invoice = await createInvoice({ savePaymentMethod: true, receipt });
    const paymentId = await payByCard(invoice.id);
    const orderId = s.emulator.books.payments.get(paymentId)?.OrderId;
    const init = s.emulator.requests.find((r) => r.method === "Init" && r.body.OrderId === orderId)?.body;
    expect(init).toMatchObject({ Recurrent: "Y", CustomerKey: orderId });
    expect(init?.Receipt).toEqual({
      FfdVersion: "1.05",
      Taxation: "usn_income",
      Email: "buyer@example.com",
      Items: [
        {
          Name: "Подписка",
          Price: 149900,
          Quantity: 1,
          Amount: 149900,
          Tax: "none",
          PaymentMethod: "full_prepayment",
          PaymentObject: "service",
        },
      ],
    });
    expect(await until(async () => (await invoiceStatus(invoice.id)) === "paid")).toBe(true);
    const paid = JSON.stringify(await s.get(`/v1/invoices/${invoice.id}`));
    expect(JSON.parse(paid).savedMethod).toEqual({ method: "card", methodMask: "4300 00** **** 0777" });
    // T-Bank's RebillId stays inside Kopek.
    expect(paid).not.toContain(String(s.emulator.books.payments.get(paymentId)?.rebillId));
    const charges = () =>
      s.emulator.requests.filter((r) => r.method === "Init" || r.method === "Charge").length;
    const before = charges();
    const subscription = await s.post("/v1/subscriptions", {
      amount: { amount: "149900", currency: "RUB" },
      period: { unit: "month", count: 1 },
      invoiceId: invoice.id,
    });
    expect(subscription.status).toBe(201);
    expect(await subscription.json()).toMatchObject({ status: "active", cyclesStarted: 1, method: "card" });
    expect(charges()).toBe(before);
  });

  it("charges a card saved elsewhere whose RebillId reads as a card number, given in the b64: form", async () => {
    // A merchant bringing T-Bank cards from an earlier integration: RebillIds are 13-digit numbers, and
    // one in ten passes Luhn (this one was published from a T-Bank test), which API.md 4 refuses.
    const rebillId = "1761673723009";
    const plain = s.emulator.books.seedSavedCard({ customerKey: "legacy-7", rebillId });
    const subscriptionOn = (providerMethodRef: string) =>
      s.post("/v1/subscriptions", {
        amount: { amount: "149900", currency: "RUB" },
        period: { unit: "month", count: 1 },
        method: "card",
        providerMethodRef,
      });
    const requestsBefore = s.emulator.requests.length;
    const refused = await subscriptionOn(plain);
    expect(refused.status).toBe(422);
    expect(await refused.json()).toMatchObject({ errors: [{ code: "card_number_not_allowed" }] });
    const malformed = await subscriptionOn(`${encodedRefOf(plain)}!`);
    // Refused before anything is sent, as any ref the adapter cannot read (README, "Refs you bring"):
    // the request's mistake, 422 at the field, not a provider failure.
    expect(malformed.status).toBe(422);
    expect(await malformed.json()).toMatchObject({
      code: "validation_failed",
      errors: [{ pointer: "#/providerMethodRef", code: "invalid_value" }],
    });
    expect(s.emulator.requests.length).toBe(requestsBefore);
    // A ref it reads that names no card of that customer: asked (GetCardList), then 422 too, uncharged.
    const chargesOf = () => s.emulator.requests.filter((r) => r.method === "Charge").length;
    const chargedBefore = chargesOf();
    const unknown = await subscriptionOn(encodedRefOf("legacy-7:99999999999"));
    expect(unknown.status).toBe(422);
    expect(await unknown.json()).toMatchObject({ errors: [{ pointer: "#/providerMethodRef" }] });
    expect(chargesOf()).toBe(chargedBefore);
    const created = await subscriptionOn(encodedRefOf(plain));
    expect(created.status).toBe(201);
    expect(await created.json()).toMatchObject({ status: "active", cyclesStarted: 1 });
    const charged = s.emulator.requests.filter((r) => r.method === "Charge" && r.body.RebillId !== undefined);
    expect(String(charged.at(-1)?.body.RebillId)).toBe(rebillId);
  });

  it("refuses at creation an invoice that asks to save SBP when storedMethods leaves sbp out", async () => {
    const refused = await s.post("/v1/invoices", {
      amount: { amount: "149900", currency: "RUB" },
      method: "sbp",
      savePaymentMethod: true,
    });
    expect(refused.status).toBe(422);
    expect(((await refused.json()) as { code: string }).code).toBe("method_unavailable");
  });
});
