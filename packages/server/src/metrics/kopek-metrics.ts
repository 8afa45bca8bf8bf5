import { type Clock, type KopekResponse, type ResourceCounts, systemClock } from "@kopek/core";
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";
import { requestSeries } from "./request-series.js";

/**
 * What an operator scrapes at `/metrics` (Prometheus text format): requests by route and status,
 * idempotent replays and refusals, provider calls, renewals and webhook deliveries by outcome, provider
 * words refused for their amount (API.md 10.1), and
 * the process's own gauges. Each series is fed by one place that already knows the fact (the request
 * hook, the API routes, the provider registry, the renewal worker's and dispatcher's callbacks), so
 * nothing on the request path waits for it and nothing is counted twice.
 */
export interface KopekMetrics {
  readonly registry: Registry;
  /** A request answered: its method, route pattern (null: no route matched), status, duration. */
  requestCompleted(method: string, route: string | null, status: number, seconds: number): void;
  /** Core's answer to an API request: a replay, or an idempotency refusal, is counted. */
  apiAnswered(answer: KopekResponse): void;
  /** One call to a payment provider and how it ended (`ok`, or the error's code). */
  providerCall(provider: string, operation: string, outcome: string, seconds: number): void;
  /** One renewal attempt and its result (`charged`, `declined`, `pending`, …). */
  renewal(result: string): void;
  /**
   * A provider's word refused for its amount or currency (API.md 10.1), by provider kind and what it
   * was about (`payment` or `refund`).
   */
  amountMismatch(provider: string, kind: "payment" | "refund"): void;
  /** One webhook delivery attempt, and how long its event waited in the outbox by then. */
  webhookAttempt(outcome: string, queueAgeSeconds: number): void;
  /**
   * Where the pending payments are counted: for each cutoff, how many pending payments were created
   * at or before it (storage's `countPendingPayments`); null when they cannot be counted now (the
   * series is then left out rather than stale).
   */
  countPendingPaymentsWith(count: (cutoffs: readonly Date[]) => Promise<readonly number[] | null>): void;
  /**
   * Counts the pending payments now and keeps the figures for the scrapes until the next refresh: a
   * scrape reads them and never waits on storage (the metrics plugin refreshes on an interval).
   */
  refreshPendingPayments(): Promise<void>;
  /**
   * Where the resources are counted (storage's `countResources`): payments by status and provider,
   * invoices and subscriptions by status, the webhook outbox's backlog; null when they cannot be
   * counted now (those series are then left out rather than stale).
   */
  countResourcesWith(count: () => Promise<ResourceCounts | null>): void;
  /** Counts the resources now and keeps the figures for the scrapes until the next refresh. */
  refreshResourceCounts(): Promise<void>;
  /**
   * The PostgreSQL pool whose connections are shown (`pg.Pool`'s own counters, read at a scrape:
   * no query); null (memory storage) leaves the series out. Once per registry: later pools are ignored.
   */
  observeDatabasePool(pool: PoolCounters | null): void;
  /** A background job finished a run without an error: its heartbeat is now (unix seconds). */
  workerSucceeded(worker: WorkerName): void;
}

/** What `pg.Pool` counts of its connections, without coupling the metrics to `pg`. */
export interface PoolCounters {
  readonly totalCount: number;
  readonly idleCount: number;
  readonly waitingCount: number;
}

/** The background jobs whose last successful run is a heartbeat gauge. */
export type WorkerName = "renewals" | "reconciler";

/** The ages, in seconds, the pending payments are counted at: all of them, then older than each. */
export const PENDING_PAYMENT_AGES = [0, 60, 300, 3600, 86_400] as const;

const IDEMPOTENCY_REFUSALS = new Set(["idempotency_request_in_progress", "idempotency_key_reused"]);
// Seconds: from a cached read to a provider that takes its time.
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
// Seconds an event waited: from at once to the end of the retry schedule (days).
const QUEUE_AGE_BUCKETS = [0.1, 1, 5, 30, 60, 300, 1800, 3600, 6 * 3600, 86_400, 3 * 86_400];

/**
 * `clock`: what the pending payments' ages are measured from — the server's clock (the test clock
 * file too), so they agree with the payments' own `createdAt`. The wall clock by default.
 */
export function createKopekMetrics(clock: Clock = systemClock): KopekMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: "kopek_" });
  // prom-client's gauges named `_total` are not counters (`promtool check metrics` refuses the name);
  // their figure is the sum of the same family by `type` (kopek_nodejs_active_handles{type} …).
  for (const name of ["handles", "requests", "resources"])
    registry.removeSingleMetric(`kopek_nodejs_active_${name}_total`);
  const requests = requestSeries(
    registry,
    { count: "kopek_http_requests_total", duration: "kopek_http_request_duration_seconds" },
    {
      count: "HTTP requests answered, by method, route pattern and status",
      duration: "Time from a request's arrival to its answer, by method, route pattern and status",
    },
    LATENCY_BUCKETS,
  );
  const replays = new Counter({
    name: "kopek_idempotent_replays_total",
    help: "Requests answered with the stored response of an earlier request with the same Idempotency-Key",
    registers: [registry],
  });
  const refusals = new Counter({
    name: "kopek_idempotency_refusals_total",
    help: "Requests refused over their Idempotency-Key: in progress (409) or reused with another body (422)",
    labelNames: ["code"] as const,
    registers: [registry],
  });
  const providerCalls = new Histogram({
    name: "kopek_provider_call_duration_seconds",
    help: "Calls to payment providers, by provider kind, operation and outcome (ok or the error's code)",
    labelNames: ["provider", "operation", "outcome"] as const,
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  const renewals = new Counter({
    name: "kopek_renewals_total",
    help: "Renewal attempts by result",
    labelNames: ["result"] as const,
    registers: [registry],
  });
  const amountMismatches = new Counter({
    name: "kopek_provider_amount_mismatch_total",
    help: "Provider answers and notifications refused because their amount or currency was not what Kopek asked for: they settled nothing (API.md 10.1)",
    labelNames: ["provider", "kind"] as const,
    registers: [registry],
  });
  const webhookQueueAge = new Histogram({
    name: "kopek_webhook_delivery_queue_age_seconds",
    help: "Webhook delivery attempts by outcome, observed at how long their event had waited in the outbox",
    labelNames: ["outcome"] as const,
    buckets: QUEUE_AGE_BUCKETS,
    registers: [registry],
  });

  let countPending: ((cutoffs: readonly Date[]) => Promise<readonly number[] | null>) | null = null;
  let pendingCounts: readonly number[] | null = null;
  new Gauge({
    name: "kopek_pending_payments",
    help: "Payments pending at their provider, by age (older than older_than_seconds; 0: all), as of the last refresh",
    labelNames: ["older_than_seconds"] as const,
    registers: [registry],
    collect() {
      this.reset();
      const counts = pendingCounts;
      if (counts === null) return;
      PENDING_PAYMENT_AGES.forEach((age, i) => {
        this.set({ older_than_seconds: String(age) }, counts[i] ?? 0);
      });
    },
  });
  let countResources: (() => Promise<ResourceCounts | null>) | null = null;
  let resourceCounts: ResourceCounts | null = null;
  new Gauge({
    name: "kopek_payments",
    help: "Payments stored, by status and provider kind, as of the last refresh",
    labelNames: ["status", "provider"] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const c of resourceCounts?.payments ?? [])
        this.inc({ status: c.status, provider: c.provider }, c.count);
    },
  });
  new Gauge({
    name: "kopek_invoices",
    help: "Invoices stored, by status, as of the last refresh",
    labelNames: ["status"] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const c of resourceCounts?.invoices ?? []) this.inc({ status: c.status }, c.count);
    },
  });
  new Gauge({
    name: "kopek_subscriptions",
    help: "Subscriptions stored, by status, as of the last refresh",
    labelNames: ["status"] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const c of resourceCounts?.subscriptions ?? []) this.inc({ status: c.status }, c.count);
    },
  });
  new Gauge({
    name: "kopek_dunning_subscriptions",
    help: "The dunning queue: past_due subscriptions waiting for their next retry, as of the last refresh",
    registers: [registry],
    collect() {
      this.reset();
      const counts = resourceCounts;
      if (counts === null) return;
      this.set(counts.subscriptions.filter((c) => c.status === "past_due").reduce((n, c) => n + c.count, 0));
    },
  });
  new Gauge({
    name: "kopek_webhook_outbox_pending_deliveries",
    help: "Webhook deliveries not yet delivered nor given up (the outbox's depth), as of the last refresh",
    registers: [registry],
    collect() {
      this.reset();
      if (resourceCounts !== null) this.set(resourceCounts.pendingDeliveries);
    },
  });
  new Gauge({
    name: "kopek_webhook_outbox_oldest_age_seconds",
    help: "Age of the oldest event with a pending webhook delivery (0: none pending); the event is the last refresh's",
    registers: [registry],
    collect() {
      this.reset();
      const counts = resourceCounts;
      if (counts === null) return;
      const oldest = counts.oldestPendingEventAt;
      this.set(oldest === null ? 0 : Math.max(0, (clock.now().getTime() - oldest.getTime()) / 1000));
    },
  });
  // Registered with the first pool observed, so memory storage has no such series at all.
  let poolObserved = false;
  const observePool = (pool: PoolCounters) => {
    if (poolObserved) return;
    poolObserved = true;
    new Gauge({
      name: "kopek_db_pool_connections",
      help: "PostgreSQL pool connections by state (in_use, idle); absent on memory storage",
      labelNames: ["state"] as const,
      registers: [registry],
      collect() {
        this.set({ state: "in_use" }, pool.totalCount - pool.idleCount);
        this.set({ state: "idle" }, pool.idleCount);
      },
    });
    new Gauge({
      name: "kopek_db_pool_waiting_clients",
      help: "Queries waiting for a PostgreSQL pool connection; absent on memory storage",
      registers: [registry],
      collect() {
        this.set(pool.waitingCount);
      },
    });
  };
  const heartbeats = new Gauge({
    name: "kopek_worker_last_success_timestamp_seconds",
    help: "When a background job (renewals, reconciler) last finished a run without an error, in unix seconds (wall clock)",
    labelNames: ["worker"] as const,
    registers: [registry],
  });
  return {
    registry,
    requestCompleted: requests.observe,
    apiAnswered(answer) {
      if (answer.headers["idempotent-replayed"] === "true") replays.inc();
      else if (answer.code !== undefined && IDEMPOTENCY_REFUSALS.has(answer.code))
        refusals.inc({ code: answer.code });
    },
    providerCall(provider, operation, outcome, seconds) {
      providerCalls.observe({ provider, operation, outcome }, seconds);
    },
    renewal(result) {
      renewals.inc({ result });
    },
    amountMismatch(provider, kind) {
      amountMismatches.inc({ provider, kind });
    },
    webhookAttempt(outcome, queueAgeSeconds) {
      webhookQueueAge.observe({ outcome }, Math.max(0, queueAgeSeconds));
    },
    countPendingPaymentsWith(count) {
      countPending = count;
    },
    countResourcesWith(count) {
      countResources = count;
    },
    async refreshResourceCounts() {
      if (countResources === null) return;
      resourceCounts = await countResources();
    },
    observeDatabasePool(pool) {
      if (pool !== null) observePool(pool);
    },
    workerSucceeded(worker) {
      // The wall clock, as Prometheus's `time()` an alert compares it with (not a test clock file).
      heartbeats.set({ worker }, Date.now() / 1000);
    },
    async refreshPendingPayments() {
      if (countPending === null) return;
      const now = clock.now().getTime();
      pendingCounts = await countPending(PENDING_PAYMENT_AGES.map((age) => new Date(now - age * 1000)));
    },
  };
}
