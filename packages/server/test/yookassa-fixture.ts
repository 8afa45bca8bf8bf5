import { randomUUID } from "node:crypto";
import {
  type Clock,
  createKopek,
  createRenewalWorker,
  generateWebhookSecret,
  type Storage,
} from "@kopek/core";
import { startYooKassaEmulator, type YooKassaEmulator } from "@kopek/provider-yookassa/emulator";
import { createMemoryStorage } from "@kopek/storage-memory";
import { buildApp } from "../src/app.js";
import { createLogger } from "../src/startup/logger.js";
import { createProjectWithKey } from "../src/startup/project-setup.js";
import { createProviderRegistry } from "../src/startup/providers.js";
import { startBackgroundJobs } from "../src/webhooks/start-background.js";
import { appendLog, newLogFile, recordBodyRefs, recordMethodRef } from "./test-artifacts.js";
import { startReceiver } from "./webhook-receiver.js";

// biome-ignore lint/suspicious/noExplicitAny: responses are read as plain JSON; the tests assert their shapes.
export type Json = Record<string, any>;

/** A clock at real speed that a test moves on (as KOPEK_TEST_CLOCK_FILE does for a server process). */
export function shiftableClock() {
  let offsetMs = 0;
  const clock: Clock = { now: () => new Date(Date.now() + offsetMs) };
  return {
    clock,
    shift(ms: number) {
      offsetMs += ms;
    },
  };
}

export async function until(check: () => boolean | Promise<boolean>, ms = 5000): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 20));
  }
  return check();
}

/**
 * The reference server wired as `kopek serve` wires it (the provider registry, the app, the background
 * jobs: webhook dispatcher, sweeper, payment reconciler every 20 ms), listening on 127.0.0.1, with one
 * project whose provider is `yookassa` pointed at a fresh YooKassa emulator, an API key, and a webhook
 * endpoint at a merchant receiver. The emulator notifies the project's notification URL unless
 * `notify` is false. Memory storage unless `storage` is given.
 */
export async function startYooKassaServer(options: { storage?: Storage | undefined; notify?: boolean } = {}) {
  const emulator: YooKassaEmulator = await startYooKassaEmulator();
  const receiver = await startReceiver();
  const storage = options.storage ?? createMemoryStorage();
  // Every log line for the secret scan after the suite, which also looks for the shop's secret key.
  const logFile = newLogFile("yookassa-in-process");
  const logger = createLogger({ level: "info", destination: { write: (line) => appendLog(logFile, line) } });
  recordMethodRef(emulator.secretKey);
  const time = shiftableClock();
  const { project, apiKey } = (
    await createProjectWithKey(storage, {
      name: "Coffee Co",
      provider: {
        kind: "yookassa",
        shopId: emulator.shopId,
        secretKey: emulator.secretKey,
        storedMethods: ["card"],
        apiUrl: emulator.apiUrl,
      },
    })
  )._unsafeUnwrap();
  const secret = generateWebhookSecret();
  (
    await storage.saveWebhookEndpoint({
      id: randomUUID(),
      projectId: project.id,
      url: `${receiver.url}/hooks`,
      secret,
      enabled: true,
      createdAt: new Date(),
      disabledAt: null,
      disabledReason: null,
      lastSuccessAt: null,
    })
  )._unsafeUnwrap();
  const providerFor = createProviderRegistry({ clock: time.clock });
  let url = "http://127.0.0.1";
  const kopek = createKopek({
    storage,
    providerFor,
    publicUrl: () => url,
    clock: time.clock,
    pendingChargeWaitMs: 2000,
  });
  const app = await buildApp({ kopek, storage, logger, publicUrl: () => url, rateLimitPerSecond: 0 });
  await app.listen({ host: "127.0.0.1", port: 0 });
  const address = app.server.address();
  url = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
  const notificationUrl = `${url}/provider-events/${project.id}/yookassa`;
  if (options.notify !== false) emulator.notifyTo(notificationUrl);
  const background = startBackgroundJobs({
    storage,
    providerFor,
    publicUrl: () => url,
    clock: time.clock,
    intervalMs: 20,
    logger,
    retryScheduleMs: [50, 100, 200, 400, 800],
    timeoutMs: 1000,
  });
  const renewals = createRenewalWorker({ storage, providerFor, clock: time.clock });

  const post = (path: string, body: unknown) => {
    recordBodyRefs(body);
    return fetch(`${url}${path}`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${apiKey}`,
        "idempotency-key": randomUUID(),
        "content-type": "application/json",
      },
      body: JSON.stringify(body),
    });
  };
  const get = async (path: string): Promise<Json> =>
    (await (await fetch(`${url}${path}`, { headers: { authorization: `Bearer ${apiKey}` } })).json()) as Json;
  const hookTypes = () =>
    receiver.received.map((hook) => (JSON.parse(hook.body) as { type: string }).type).sort();

  return {
    url,
    emulator,
    receiver,
    storage,
    project,
    apiKey,
    secret,
    notificationUrl,
    time,
    renewals,
    post,
    get,
    hookTypes,
    async createInvoice(body: Json = {}): Promise<Json> {
      const created = await post("/v1/invoices", {
        amount: { amount: "149900", currency: "RUB" },
        returnUrl: `${receiver.url}/return?order=42`,
        ...body,
      });
      if (created.status !== 201) throw new Error(`invoice not created: ${await created.text()}`);
      return (await created.json()) as Json;
    },
    /**
     * A payer on the page: opens it, takes its CSRF token, and chooses `method` (a same-origin form
     * post). Answers the 303's Location (the emulator's confirmation URL) and the raw response.
     */
    choose: (invoiceId: string, method: "card" | "sbp") => choosePaymentMethod(url, invoiceId, method),
    /** The payer at the emulator's checkout: pays with `card` or declines; answers the 303's Location. */
    async decide(confirmationUrl: string, decision: { card: string } | { decline: string }) {
      const form =
        "card" in decision
          ? { outcome: "pay", card: decision.card }
          : { outcome: "decline", reason: decision.decline };
      const decided = await fetch(confirmationUrl, {
        method: "POST",
        redirect: "manual",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams(form).toString(),
      });
      await decided.body?.cancel();
      if (decided.status !== 303) throw new Error(`checkout answered ${decided.status}`);
      return decided.headers.get("location") ?? "";
    },
    async close() {
      await background.stop();
      await renewals.stop();
      await app.close();
      await emulator.close();
      await receiver.close();
    },
  };
}

/**
 * A payer on Kopek's page at `baseUrl`: opens it, takes its CSRF token, and chooses `method` (a
 * same-origin form post). Answers the 303's Location (the provider's confirmation URL) and the status.
 */
export async function choosePaymentMethod(baseUrl: string, invoiceId: string, method: "card" | "sbp") {
  const page = await fetch(`${baseUrl}/pay/${invoiceId}`);
  const html = await page.text();
  const token = /name="token" value="([^"]+)"/.exec(html)?.[1] ?? "";
  const chosen = await fetch(`${baseUrl}/pay/${invoiceId}`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: baseUrl },
    body: new URLSearchParams({ token, method }).toString(),
  });
  await chosen.body?.cancel();
  return { status: chosen.status, location: chosen.headers.get("location") ?? "" };
}

export type YooKassaServer = Awaited<ReturnType<typeof startYooKassaServer>>;

/** The emulator's payment id in its confirmation URL (`…/checkout/{id}`). */
export const emulatorPaymentIdOf = (confirmationUrl: string) => confirmationUrl.split("/").pop() ?? "";
