import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appAfterTraffic, type Scraped, STORAGES, seriesValue } from "./metrics-scrape.js";

// Issue 42 part 2: the figures an operator watches, counted in storage on the metrics interval (never
// on a scrape): payments by status and provider, invoices and subscriptions by status, the dunning
// queue, the webhook outbox's depth and oldest age, the PostgreSQL pool, the workers' heartbeats.
describe.each(STORAGES)("GET /metrics on %s storage", (kind) => {
  let app: Scraped;
  beforeAll(async () => {
    app = await appAfterTraffic(kind);
  }, 60_000);
  afterAll(async () => app?.close());

  it("shows invoices, subscriptions and payments by status, and the outbox's backlog", async () => {
    const text = await app.scrape();
    const value = (series: string) => seriesValue(text, series);
    expect(value('kopek_invoices{status="created"}')).toBe(2);
    expect(value('kopek_subscriptions{status="active"}')).toBe(2);
    // Each subscription's first charge, by the sandbox.
    expect(value('kopek_payments{status="succeeded",provider="sandbox"}')).toBe(2);
    expect(value("kopek_dunning_subscriptions")).toBe(0);
    // subscription.created and subscription's payment events to an endpoint that answers 503.
    expect(value("kopek_webhook_outbox_pending_deliveries")).toBeGreaterThanOrEqual(2);
    const age = value("kopek_webhook_outbox_oldest_age_seconds");
    expect(age).toBeGreaterThan(0);
    expect(age).toBeLessThan(120);
    expect(value('kopek_pending_payments{older_than_seconds="60"}')).toBe(0);
  });

  it("shows the workers' heartbeats in unix seconds, and the pool on PostgreSQL only", async () => {
    const text = await app.scrape();
    const now = Date.now() / 1000;
    for (const worker of ["renewals", "reconciler"]) {
      const beat = seriesValue(text, `kopek_worker_last_success_timestamp_seconds{worker="${worker}"}`);
      expect(beat).toBeGreaterThan(now - 60);
      expect(beat).toBeLessThanOrEqual(now + 1);
    }
    if (kind === "postgres") {
      expect(seriesValue(text, 'kopek_db_pool_connections{state="idle"}')).toBeGreaterThanOrEqual(0);
      expect(seriesValue(text, 'kopek_db_pool_connections{state="in_use"}')).toBeGreaterThanOrEqual(0);
      expect(seriesValue(text, "kopek_db_pool_waiting_clients")).toBe(0);
    } else {
      expect(text).not.toMatch(/^kopek_db_pool_connections\{/m);
      expect(text).not.toMatch(/^kopek_db_pool_waiting_clients /m);
    }
  });

  it("a scrape alone counts nothing new: the figures are the last refresh's", async () => {
    const before = (await app.t.inject({ method: "GET", url: "/metrics" })).body;
    expect(await app.t.post("/v1/invoices", { amount: { amount: "100", currency: "RUB" } })).toHaveProperty(
      "statusCode",
      201,
    );
    const unrefreshed = (await app.t.inject({ method: "GET", url: "/metrics" })).body;
    expect(seriesValue(unrefreshed, 'kopek_invoices{status="created"}')).toBe(
      seriesValue(before, 'kopek_invoices{status="created"}'),
    );
    expect(seriesValue(await app.scrape(), 'kopek_invoices{status="created"}')).toBe(3);
  });
});
