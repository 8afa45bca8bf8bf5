import { randomBytes } from "node:crypto";
import { type Clock, createKopek, type Kopek, type PaymentProvider, type Storage } from "@kopek/core";
import { createSandboxCheckout, createSandboxLedger } from "@kopek/provider-sandbox";
import { createMemoryStorage } from "@kopek/storage-memory";
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from "fastify";
import { buildApp } from "../src/app.js";
import type { ServerTimeouts } from "../src/http/server-timeouts.js";
import type { RateLimits } from "../src/limits/rate-limits.js";
import type { KopekMetrics } from "../src/metrics/kopek-metrics.js";
import { reportAmountMismatches } from "../src/startup/amount-mismatches.js";
import { createLogger, reportKopekErrors } from "../src/startup/logger.js";
import { createProjectWithKey } from "../src/startup/project-setup.js";
import { createProviderRegistry } from "../src/startup/providers.js";
import { appendLog, newLogFile, recordBodyRefs } from "./test-artifacts.js";

export const PUBLIC_URL = "https://pay.example.test";
export const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
export const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

export interface TestAppOptions {
  readonly storedMethodCharge?: boolean;
  readonly rateLimitPerSecond?: number;
  /** All the rate limits (see src/limits/rate-limits.ts); `rateLimitPerSecond` is ignored then. */
  readonly rateLimits?: RateLimits;
  /** Wraps the project's provider, e.g. to slow it down or make it throw. */
  readonly wrapProvider?: (provider: PaymentProvider) => PaymentProvider;
  /** Wraps the Kopek instance the app is given, e.g. to make it throw. */
  readonly wrapKopek?: (kopek: Kopek) => Kopek;
  /** The storage to run on; fresh memory storage by default. */
  readonly storage?: Storage;
  /** Kopek's clock; the wall clock by default. */
  readonly clock?: Clock;
  /** The server's timeouts on slow clients; the defaults when omitted. */
  readonly timeouts?: ServerTimeouts;
  /** Signs the payment forms' CSRF tokens; random per app when omitted. */
  readonly pageSecret?: Uint8Array;
  /** Answers GET /metrics from these series when given. */
  readonly metrics?: KopekMetrics;
  /** The proxies whose X-Forwarded-For is believed (KOPEK_TRUST_PROXY); none by default. */
  readonly trustProxy?: readonly string[];
}

/** An app on fresh memory storage (or `options.storage`) and a sandbox ledger, with one project, its key, and the log lines. */
export async function buildTestApp(options: TestAppOptions = {}) {
  const storage = options.storage ?? createMemoryStorage();
  const ledger = createSandboxLedger();
  const logLines: string[] = [];
  const logFile = newLogFile("in-process"); // for the secret scan after the suite
  const logger = createLogger({
    level: "info",
    destination: {
      write: (line: string) => {
        logLines.push(line);
        appendLog(logFile, line);
      },
    },
  });
  const registry = createProviderRegistry({ ledger });
  const checkout = createSandboxCheckout(ledger);
  const wrap = options.wrapProvider ?? ((provider) => provider);
  const kopek = createKopek({
    storage,
    providerFor: (project) => wrap(registry(project)),
    publicUrl: PUBLIC_URL,
    onError: reportKopekErrors(logger),
    // As main.ts wires it: logged, and counted when the app has metrics.
    onAmountMismatch: reportAmountMismatches(logger, options.metrics),
    ...(options.clock === undefined ? {} : { clock: options.clock }),
  });
  const created = await createProjectWithKey(storage, {
    name: "test",
    provider: { kind: "sandbox", storedMethodCharge: options.storedMethodCharge ?? true },
  });
  const { project, apiKey } = created._unsafeUnwrap();
  const app = await buildApp({
    kopek: options.wrapKopek?.(kopek) ?? kopek,
    storage,
    logger,
    rateLimitPerSecond: options.rateLimitPerSecond ?? 0,
    ...(options.rateLimits === undefined ? {} : { rateLimits: options.rateLimits }),
    publicUrl: PUBLIC_URL,
    ...(options.timeouts === undefined ? {} : { timeouts: options.timeouts }),
    ...(options.pageSecret === undefined ? {} : { pageSecret: options.pageSecret }),
    ...(options.metrics === undefined ? {} : { metrics: options.metrics }),
    ...(options.trustProxy === undefined ? {} : { trustProxy: options.trustProxy }),
    sandboxCheckout: checkout,
  });
  const post = (
    url: string,
    body: unknown,
    headers: Record<string, string> = {},
  ): Promise<LightMyRequestResponse> => {
    recordBodyRefs(body);
    return app.inject({
      method: "POST",
      url,
      headers: {
        authorization: `Bearer ${apiKey}`,
        "content-type": "application/json",
        "idempotency-key": crypto.randomUUID(),
        ...headers,
      },
      payload: typeof body === "string" ? body : JSON.stringify(body),
    });
  };
  const get = (url: string, key = apiKey): Promise<LightMyRequestResponse> =>
    app.inject({ method: "GET", url, headers: { authorization: `Bearer ${key}` } });
  return {
    app,
    get,
    kopek,
    storage,
    ledger,
    checkout,
    project,
    apiKey,
    logLines,
    post,
    inject: (o: InjectOptions) => app.inject(o),
  };
}

export type TestApp = Awaited<ReturnType<typeof buildTestApp>> & { app: FastifyInstance };

/**
 * A provider method ref no other test uses, in letters only: one with digits could, now and then,
 * hold 13–19 of them that pass Luhn between separators (`pm_…29_6164_4955_982…` did), and Kopek
 * refuses what reads as a card number everywhere (422).
 */
export const uniqueMethodRef = (prefix: string) =>
  `${prefix}_${randomBytes(18)
    .toString("base64url")
    .replace(/[^A-Za-z]/g, "x")}`;

export const subscriptionBody = (overrides: Record<string, unknown> = {}) => ({
  amount: { amount: "149900", currency: "RUB" },
  period: { unit: "month", count: 1 },
  method: "card",
  providerMethodRef: "tok_test_4242",
  ...overrides,
});

export const invoiceBody = (overrides: Record<string, unknown> = {}) => ({
  amount: { amount: "149900", currency: "RUB" },
  ...overrides,
});

/** A body parsed as JSON, for assertions. */
// biome-ignore lint/suspicious/noExplicitAny: assertions read arbitrary response JSON; `expect` checks the shapes.
export const json = (response: LightMyRequestResponse) => JSON.parse(response.body) as Record<string, any>;
