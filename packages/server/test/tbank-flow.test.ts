import { randomUUID } from "node:crypto";
import { createKopek, generateWebhookSecret, systemClock } from "@kopek/core";
import { signed } from "@kopek/provider-tbank";
import { EMULATOR_SUCCESS_CARD, startTBankEmulator } from "@kopek/provider-tbank/emulator";
import { createMemoryStorage } from "@kopek/storage-memory";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../src/app.js";
import { createLogger } from "../src/startup/logger.js";
import { createProjectWithKey } from "../src/startup/project-setup.js";
import { createProviderRegistry } from "../src/startup/providers.js";
import { startBackgroundJobs } from "../src/webhooks/start-background.js";
import { startReceiver } from "./webhook-receiver.js";
import { choosePaymentMethod, until } from "./yookassa-fixture.js";

// The reference server paying an invoice through @kopek/provider-tbank against the T-Bank emulator, over
// real HTTP (issue 17): the page's form, the emulator's checkout, its Token-signed notification to
// /provider-events/{projectId}/tbank answered OK, the payer's return. Memory storage: the PostgreSQL
// paths are the provider-independent ones the YooKassa flow already covers.

const emulator = await startTBankEmulator();
const receiver = await startReceiver();
const storage = createMemoryStorage();
const { project, apiKey } = (
  await createProjectWithKey(storage, {
    name: "Tea Co",
    provider: {
      kind: "tbank",
      terminalKey: emulator.terminalKey,
      password: emulator.password,
      storedMethods: ["card"],
      apiUrl: emulator.apiUrl,
    },
  })
)._unsafeUnwrap();
(
  await storage.saveWebhookEndpoint({
    id: randomUUID(),
    projectId: project.id,
    url: `${receiver.url}/hooks`,
    secret: generateWebhookSecret(),
    enabled: true,
    createdAt: new Date(),
    disabledAt: null,
    disabledReason: null,
    lastSuccessAt: null,
  })
)._unsafeUnwrap();
const providerFor = createProviderRegistry();
// Warnings and above, to see that a refused notification is logged.
const warnings: string[] = [];
const logger = createLogger({ level: "warn", destination: { write: (line) => warnings.push(line) } });
let url = "http://127.0.0.1";
const kopek = createKopek({ storage, providerFor, publicUrl: () => url });
const app = await buildApp({
  kopek,
  storage,
  logger,
  publicUrl: () => url,
  rateLimitPerSecond: 0,
});
let background: ReturnType<typeof startBackgroundJobs>;
beforeAll(async () => {
  await app.listen({ host: "127.0.0.1", port: 0 });
  const address = app.server.address();
  url = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
  background = startBackgroundJobs({
    storage,
    providerFor,
    publicUrl: () => url,
    clock: systemClock,
    intervalMs: 20,
    logger: createLogger({ level: "silent" }),
    retryScheduleMs: [50, 100, 200],
    timeoutMs: 1000,
  });
});
afterAll(async () => {
  await background.stop();
  await app.close();
  await emulator.close();
  await receiver.close();
});

const api = (path: string, body?: unknown) =>
  fetch(`${url}${path}`, {
    method: body === undefined ? "GET" : "POST",
    headers: {
      authorization: `Bearer ${apiKey}`,
      "idempotency-key": randomUUID(),
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
const invoiceStatus = async (id: string) =>
  ((await (await api(`/v1/invoices/${id}`)).json()) as { status: string }).status;

const choose = (invoiceId: string, method: "card" | "sbp") => choosePaymentMethod(url, invoiceId, method);
const hookTypesOf = (invoiceId: string) =>
  receiver.received
    .filter((hook) => hook.body.includes(invoiceId))
    .map((hook) => (JSON.parse(hook.body) as { type: string }).type);
const notify = (body: unknown) =>
  fetch(`${url}/provider-events/${project.id}/tbank`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });

/** The payer pays at the emulator's checkout and is sent back; T-Bank's notifications are then delivered. */
async function payAt(confirmationUrl: string) {
  const paid = await fetch(confirmationUrl, {
    method: "POST",
    redirect: "manual",
    body: new URLSearchParams({ outcome: "pay", card: EMULATOR_SUCCESS_CARD }),
  });
  expect(paid.status).toBe(303);
  await emulator.deliveries();
}

/** The payer chooses a card on Kopek's page and pays; answers T-Bank's PaymentId. */
async function payByCard(invoiceId: string): Promise<string> {
  const chosen = await choose(invoiceId, "card");
  await payAt(chosen.location);
  return chosen.location.split("/").pop() ?? "";
}

async function createInvoice(more: Record<string, unknown> = {}) {
  const created = await api("/v1/invoices", {
    amount: { amount: "149900", currency: "RUB" },
    returnUrl: `${receiver.url}/return?order=7`,
    ...more,
  });
  expect(created.status).toBe(201);
  return (await created.json()) as { id: string };
}

describe("T-Bank through the server", () => {
  it("pays an invoice by card: page → PaymentURL → pay → Token-signed notification answered OK → paid", async () => {
    const invoice = await createInvoice();
    const chosen = await choose(invoice.id, "card");
    expect(chosen.status).toBe(303);
    expect(chosen.location).toMatch(new RegExp(`^${emulator.url}/new/[0-9]+$`));
    const paymentId = chosen.location.split("/").pop() ?? "";
    const created = emulator.books.payments.get(paymentId);
    expect(created).toMatchObject({ Amount: 149900, Status: "NEW" });
    expect(created?.NotificationURL).toBe(`${url}/provider-events/${project.id}/tbank`);
    expect(await invoiceStatus(invoice.id)).toBe("created");

    await payAt(chosen.location);
    const mine = emulator.notifications.filter((n) => String(n.body.PaymentId) === paymentId);
    expect(mine.map((n) => [n.body.Status, n.answeredOk])).toEqual([
      ["AUTHORIZED", true],
      ["CONFIRMED", true],
    ]);
    expect(await until(async () => (await invoiceStatus(invoice.id)) === "paid")).toBe(true);
    const payments = (await (await api(`/v1/payments?invoiceId=${invoice.id}`)).json()) as {
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
      emulator.requests.filter((r) => r.method === "Init" && r.body.OrderId === created?.OrderId),
    ).toHaveLength(1);
  });

  it("pays by SBP through the GetQr link", async () => {
    const invoice = await createInvoice();
    const chosen = await choose(invoice.id, "sbp");
    expect(chosen.location).toMatch(new RegExp(`^${emulator.url}/qr/[0-9]+$`));
    await payAt(chosen.location);
    expect(await until(async () => (await invoiceStatus(invoice.id)) === "paid")).toBe(true);
  });

  it("refuses a notification with a forged Token and changes nothing", async () => {
    const invoice = await createInvoice();
    const chosen = await choose(invoice.id, "card");
    const paymentId = chosen.location.split("/").pop() ?? "";
    const forged = {
      ...signed(
        {
          TerminalKey: emulator.terminalKey,
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
      emulator.requests.filter((r) => r.method === "GetState" && String(r.body.PaymentId) === paymentId)
        .length;
    const readsBefore = reads();
    const answer = await notify(forged);
    expect(await answer.text()).not.toBe("OK");
    expect(answer.status).toBeGreaterThanOrEqual(400);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await invoiceStatus(invoice.id)).toBe("created");
    expect(emulator.books.payments.get(paymentId)?.Status).toBe("NEW");
    // Refused before anything was asked of T-Bank, no event, and logged (without the body).
    expect(reads()).toBe(readsBefore);
    expect(hookTypesOf(invoice.id)).toEqual([]);
    const logged = warnings.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(logged).toContainEqual(
      expect.objectContaining({
        msg: "provider notification refused",
        projectId: project.id,
        providerKind: "tbank",
      }),
    );
    expect(warnings.join("")).not.toContain(forged.Token);
  });

  it("answers a replayed genuine notification OK and changes nothing twice: no second event, no state change", async () => {
    const invoice = await createInvoice();
    const paymentId = await payByCard(invoice.id);
    expect(await until(async () => (await invoiceStatus(invoice.id)) === "paid")).toBe(true);
    expect(await until(() => hookTypesOf(invoice.id).length > 0)).toBe(true);
    const read = async () => ({
      invoice: await (await api(`/v1/invoices/${invoice.id}`)).json(),
      payments: await (await api(`/v1/payments?invoiceId=${invoice.id}`)).json(),
    });
    const before = await read();
    // T-Bank repeats a notification until it gets OK: every genuine one, twice more.
    const genuine = emulator.notifications.filter((n) => String(n.body.PaymentId) === paymentId);
    expect(genuine.map((n) => n.body.Status)).toEqual(["AUTHORIZED", "CONFIRMED"]);
    for (const sent of [...genuine, ...genuine]) {
      const replay = await notify(sent.body);
      expect([replay.status, await replay.text()]).toEqual([200, "OK"]);
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(hookTypesOf(invoice.id)).toEqual(["invoice.paid"]);
    expect(await read()).toEqual(before);
  });

  it("saves the card of an invoice with a receipt and starts a subscription from it without a new charge", async () => {
    const item = { description: "Подписка", quantity: "1", vatCode: 1, paymentSubject: "service" };
    const receipt = {
      customer: { email: "buyer@example.com" },
      taxSystemCode: 2,
      items: [{ ...item, amount: { amount: "149900", currency: "RUB" }, paymentMode: "full_prepayment" }],
    };
    const invoice = await createInvoice({ savePaymentMethod: true, receipt });
    const paymentId = await payByCard(invoice.id);
    const orderId = emulator.books.payments.get(paymentId)?.OrderId;
    const init = emulator.requests.find((r) => r.method === "Init" && r.body.OrderId === orderId)?.body;
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
    const paid = await (await api(`/v1/invoices/${invoice.id}`)).text();
    expect(JSON.parse(paid).savedMethod).toEqual({ method: "card", methodMask: "4300 00** **** 0777" });
    // T-Bank's RebillId stays inside Kopek.
    expect(paid).not.toContain(String(emulator.books.payments.get(paymentId)?.rebillId));
    const charges = () =>
      emulator.requests.filter((r) => r.method === "Init" || r.method === "Charge").length;
    const before = charges();
    const subscription = await api("/v1/subscriptions", {
      amount: { amount: "149900", currency: "RUB" },
      period: { unit: "month", count: 1 },
      invoiceId: invoice.id,
    });
    expect(subscription.status).toBe(201);
    expect(await subscription.json()).toMatchObject({ status: "active", cyclesStarted: 1, method: "card" });
    expect(charges()).toBe(before);
  });

  it("refuses at creation an invoice that asks to save SBP when storedMethods leaves sbp out", async () => {
    const refused = await api("/v1/invoices", {
      amount: { amount: "149900", currency: "RUB" },
      method: "sbp",
      savePaymentMethod: true,
    });
    expect(refused.status).toBe(422);
    expect(((await refused.json()) as { code: string }).code).toBe("method_unavailable");
  });
});
