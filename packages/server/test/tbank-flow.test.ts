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
let url = "http://127.0.0.1";
const kopek = createKopek({ storage, providerFor, publicUrl: () => url });
const app = await buildApp({
  kopek,
  storage,
  logger: createLogger({ level: "silent" }),
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

async function createInvoice() {
  const created = await api("/v1/invoices", {
    amount: { amount: "149900", currency: "RUB" },
    returnUrl: `${receiver.url}/return?order=7`,
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

    const paid = await fetch(chosen.location, {
      method: "POST",
      redirect: "manual",
      body: new URLSearchParams({ outcome: "pay", card: EMULATOR_SUCCESS_CARD }),
    });
    expect(paid.status).toBe(303);
    await emulator.deliveries();
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
    const paidHooks = () => receiver.received.filter((hook) => hook.body.includes(invoice.id)).length;
    expect(await until(() => paidHooks() > 0)).toBe(true);
    // T-Bank repeats a notification until it gets OK: a replayed genuine one is answered OK and changes nothing.
    const replay = await fetch(`${url}/provider-events/${project.id}/tbank`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(mine[1]?.body),
    });
    expect([replay.status, await replay.text()]).toEqual([200, "OK"]);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(paidHooks()).toBe(1);
    // Only one Init for the attempt: the idempotency of the page's choice held.
    expect(
      emulator.requests.filter((r) => r.method === "Init" && r.body.OrderId === created?.OrderId),
    ).toHaveLength(1);
  });

  it("pays by SBP through the GetQr link", async () => {
    const invoice = await createInvoice();
    const chosen = await choose(invoice.id, "sbp");
    expect(chosen.location).toMatch(new RegExp(`^${emulator.url}/qr/[0-9]+$`));
    await fetch(chosen.location, {
      method: "POST",
      redirect: "manual",
      body: new URLSearchParams({ outcome: "pay", card: EMULATOR_SUCCESS_CARD }),
    });
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
    const answer = await fetch(`${url}/provider-events/${project.id}/tbank`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(forged),
    });
    expect(await answer.text()).not.toBe("OK");
    expect(await invoiceStatus(invoice.id)).toBe("created");
    expect(answer.status).toBeGreaterThanOrEqual(400);
    expect(emulator.books.payments.get(paymentId)?.Status).toBe("NEW");
  });
});
