import {
  type Clock,
  createKopek,
  createRenewalWorker,
  type ProviderSettings,
  type Storage,
} from "@kopek/core";
import { createSandboxCheckout, createSandboxLedger } from "@kopek/provider-sandbox";
import { createMemoryStorage } from "@kopek/storage-memory";
import { buildApp } from "../src/app.js";
import { reportAmountMismatches } from "../src/startup/amount-mismatches.js";
import { createLogger } from "../src/startup/logger.js";
import { createProviderRegistry } from "../src/startup/providers.js";
import { startBackgroundJobs } from "../src/webhooks/start-background.js";
import { apiClient } from "./api-client.js";
import { projectWithEndpoint } from "./pay-fixture.js";
import { appendLog, newLogFile, recordBodyRefs } from "./test-artifacts.js";
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
 * The reference server wired as `kopek serve` wires it (the provider registry, the app with the
 * sandbox's checkout, the background jobs: webhook dispatcher, sweeper, payment reconciler every 20 ms,
 * and a renewal worker run by the test), listening on 127.0.0.1 on a clock the test moves, with one
 * project on `provider`, an API key, and a webhook endpoint at a merchant receiver. Memory storage
 * unless `storage` is given. `ledger`: the sandbox's books (a sandbox project's charges and refunds).
 * `logLines`: every line logged (info and above), also kept for the secret scan.
 */
export async function startProviderServer(
  provider: ProviderSettings,
  options: { storage?: Storage | undefined; logName?: string } = {},
) {
  const receiver = await startReceiver();
  const storage = options.storage ?? createMemoryStorage();
  // Every log line for the secret scan after the suite.
  const logFile = newLogFile(options.logName ?? "provider-in-process");
  const logLines: string[] = [];
  const logger = createLogger({
    level: "info",
    destination: {
      write: (line) => {
        logLines.push(line);
        appendLog(logFile, line);
      },
    },
  });
  const time = shiftableClock();
  const { project, apiKey, secret } = await projectWithEndpoint(
    storage,
    "Coffee Co",
    `${receiver.url}/hooks`,
    provider,
  );
  const ledger = createSandboxLedger();
  const providerFor = createProviderRegistry({ clock: time.clock, ledger });
  let url = "http://127.0.0.1";
  const kopek = createKopek({
    storage,
    providerFor,
    publicUrl: () => url,
    clock: time.clock,
    pendingChargeWaitMs: 2000,
    // As `kopek serve` wires it: a provider's word for other money is logged (API.md 10.1).
    onAmountMismatch: reportAmountMismatches(logger),
  });
  const app = await buildApp({
    kopek,
    storage,
    logger,
    publicUrl: () => url,
    rateLimitPerSecond: 0,
    sandboxCheckout: createSandboxCheckout(ledger),
  });
  await app.listen({ host: "127.0.0.1", port: 0 });
  const address = app.server.address();
  url = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
  const background = startBackgroundJobs({
    storage,
    providerFor,
    publicUrl: () => url,
    clock: time.clock,
    intervalMs: 20,
    logger,
    retryScheduleMs: [50, 100, 200, 400, 800],
    timeoutMs: 1000,
    onAmountMismatch: reportAmountMismatches(logger),
  });
  const renewals = createRenewalWorker({ storage, providerFor, clock: time.clock });

  const api = apiClient(url, apiKey);
  const post = (path: string, body: unknown) => {
    recordBodyRefs(body);
    return api.post(path, body);
  };
  const get = (path: string) => api.get<Json>(path);
  const hookTypes = () =>
    receiver.received.map((hook) => (JSON.parse(hook.body) as { type: string }).type).sort();

  return {
    url,
    /** A payer on Kopek's page choosing `method`: see {@link choosePaymentMethod}. */
    choose: (invoiceId: string, method: "card" | "sbp") =>
      choosePaymentMethod(`${url}/pay/${project.id}/${invoiceId}`, method),
    receiver,
    storage,
    project,
    apiKey,
    secret,
    ledger,
    /** Every line the server logged, oldest first. */
    logLines,
    notificationUrl: `${url}/provider-events/${project.id}/${provider.kind}`,
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
    async close() {
      await background.stop();
      await renewals.stop();
      await app.close();
      await receiver.close();
    },
  };
}

/**
 * A payer on Kopek's page at `pageUrl`: opens it, takes its CSRF token, and chooses `method` (a
 * same-origin form post to the page). Answers the 303's Location (the provider's confirmation URL) and the status.
 */
export async function choosePaymentMethod(pageUrl: string, method: "card" | "sbp") {
  const page = await fetch(pageUrl);
  const html = await page.text();
  const token = /name="token" value="([^"]+)"/.exec(html)?.[1] ?? "";
  const chosen = await fetch(pageUrl, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: new URL(pageUrl).origin },
    body: new URLSearchParams({ token, method }).toString(),
  });
  await chosen.body?.cancel();
  return { status: chosen.status, location: chosen.headers.get("location") ?? "" };
}

export type ProviderServer = Awaited<ReturnType<typeof startProviderServer>>;
