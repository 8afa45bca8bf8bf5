import { createUuidV7Generator, generateWebhookSecret, newWebhookEndpoint, type Storage } from "@kopek/core";
import { createMemoryStorage } from "@kopek/storage-memory";
import { startKopekBackground } from "../src/background.js";
import { createKopekMetrics, type KopekMetrics, type PoolCounters } from "../src/metrics/kopek-metrics.js";
import { createLogger } from "../src/startup/logger.js";
import { createProviderRegistry } from "../src/startup/providers.js";
import { buildTestApp, invoiceBody, subscriptionBody, type TestApp } from "./helper.js";
import { openServerTestDatabase } from "./postgres-database.js";
import { until } from "./provider-server.js";

/** The storages the metrics tests run on: fresh memory storage, and a fresh PostgreSQL database. */
export const STORAGES = ["memory", "postgres"] as const;

export interface Scraped {
  readonly t: TestApp;
  readonly metrics: KopekMetrics;
  /** GET /metrics as the app answers it (after the storage figures were refreshed). */
  scrape(): Promise<string>;
  close(): Promise<void>;
}

/**
 * The reference app on `kind` storage with metrics, a webhook endpoint that is never reached (so its
 * deliveries stay pending: the outbox), the background jobs running every 20 ms (so the worker
 * heartbeats beat) and some traffic: 2 invoices, 2 subscriptions (charged at once), 1 request with an
 * unknown route. The PostgreSQL pool is observed as main.ts does.
 */
export async function appAfterTraffic(kind: (typeof STORAGES)[number]): Promise<Scraped> {
  let storage: Storage;
  let pool: PoolCounters | null = null;
  let closeStorage = async () => {};
  if (kind === "memory") storage = createMemoryStorage();
  else {
    const opened = await openServerTestDatabase();
    storage = opened.storage;
    pool = opened.db.pool;
    closeStorage = () => opened.db.close();
  }
  const metrics = createKopekMetrics();
  metrics.observeDatabasePool(pool);
  const t = await buildTestApp({ metrics, storage });
  (
    await storage.saveWebhookEndpoint(
      newWebhookEndpoint({
        id: createUuidV7Generator().newId(),
        projectId: t.project.id,
        // Nothing listens there, and the dispatcher refuses a local address: the deliveries stay pending.
        url: "https://merchant.invalid/hooks",
        secret: generateWebhookSecret(),
        createdAt: new Date(),
      }),
    )
  )._unsafeUnwrap();
  for (let i = 0; i < 2; i += 1) {
    const invoice = await t.post("/v1/invoices", invoiceBody());
    if (invoice.statusCode !== 201) throw new Error(`invoice: ${invoice.body}`);
    const subscription = await t.post("/v1/subscriptions", subscriptionBody());
    if (subscription.statusCode !== 201) throw new Error(`subscription: ${subscription.body}`);
  }
  await t.inject({ method: "GET", url: "/no-such-route" });
  const background = startKopekBackground({
    storage,
    providerFor: createProviderRegistry({}),
    intervalMs: 20,
    logger: createLogger({ level: "silent" }),
    metrics,
    // Deliveries fail at once and are retried much later: the outbox keeps them.
    transport: { send: async () => ({ kind: "response", status: 503 }) },
  });
  const scrape = async () => {
    await metrics.refreshPendingPayments(); // what the plugin's 15 s timer does
    await metrics.refreshResourceCounts();
    return (await t.inject({ method: "GET", url: "/metrics" })).body;
  };
  // Both heartbeats have beaten once.
  await until(
    async () => (await scrape()).match(/^kopek_worker_last_success_timestamp_seconds\{/gm)?.length === 2,
  );
  return {
    t,
    metrics,
    scrape,
    close: async () => {
      await background.stop();
      await t.app.close();
      await closeStorage();
    },
  };
}

/** The value of one series (`name{labels}` exactly as exposed), or undefined when absent. */
export function seriesValue(text: string, series: string): number | undefined {
  const line = text.split("\n").find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

/**
 * The names a query may select from a scrape: each family its `# TYPE` line declares (even one with
 * no sample yet, e.g. a counter nothing has incremented) with a histogram's `_bucket`, `_sum` and
 * `_count`, and each sample's name.
 */
export function exposedNames(text: string): Set<string> {
  const names = new Set<string>();
  for (const line of text.split("\n")) {
    if (line.startsWith("# TYPE ")) {
      const [, , name = "", type] = line.split(" ");
      names.add(name);
      const parts =
        type === "histogram" ? ["_bucket", "_sum", "_count"] : type === "summary" ? ["_sum", "_count"] : [];
      for (const part of parts) names.add(`${name}${part}`);
    } else if (line !== "" && !line.startsWith("#"))
      names.add(/^[a-zA-Z_:][a-zA-Z0-9_:]*/.exec(line)?.[0] ?? "");
  }
  names.delete("");
  return names;
}
