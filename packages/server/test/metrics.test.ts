import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import type { Storage } from "@kopek/core";
import { createMemoryStorage } from "@kopek/storage-memory";
import { expect, it } from "vitest";
import { startServer } from "../src/main.js";
import { createKopekMetrics } from "../src/metrics/kopek-metrics.js";
import { loadConfig } from "../src/startup/config.js";
import { setClockFile } from "./clock-file.js";
import { buildTestApp, invoiceBody, subscriptionBody } from "./helper.js";
import { createInvoice, openPage, submit } from "./pay-page.js";
import { startClockedServer } from "./renewal-scenario.js";
import { postJson } from "./server-process.js";

// Issue 18 part 3: a real `kopek serve` answers GET /metrics in Prometheus text format with the
// series an operator watches: requests by route and status with their latency, idempotent replays
// and refusals, provider calls by outcome, renewals by result. Each value is driven by requests made
// here, so a series that is not fed fails the test.
it("GET /metrics counts requests, replays, key reuse, provider calls and renewals of a real server", async () => {
  const { server, apiKey, clockFile, cleanUp } = await startClockedServer({});
  try {
    const post = (path: string, key: string, body: unknown) =>
      postJson(`${server.url}${path}`, apiKey, key, body);
    const key = randomUUID();
    expect((await post("/v1/invoices", key, invoiceBody())).status).toBe(201);
    expect((await post("/v1/invoices", key, invoiceBody())).status).toBe(200); // replayed
    expect((await post("/v1/invoices", key, invoiceBody({ description: "other" }))).status).toBe(422);
    const created = await post("/v1/subscriptions", randomUUID(), subscriptionBody());
    expect(created.status).toBe(201);
    const subscription = JSON.parse(created.body) as { id: string; nextChargeAt: string };

    await setClockFile(clockFile, new Date(Date.parse(subscription.nextChargeAt)));
    const renewed = async () => {
      const read = await fetch(`${server.url}/v1/subscriptions/${subscription.id}`, {
        headers: { authorization: `Bearer ${apiKey}` },
      });
      return ((await read.json()) as { cyclesStarted: number }).cyclesStarted === 2;
    };
    const deadline = Date.now() + 10_000;
    while (!(await renewed()) && Date.now() < deadline) await sleep(20);

    const scraped = await fetch(`${server.url}/metrics`);
    expect(scraped.status).toBe(200);
    expect(scraped.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await scraped.text();
    const value = (series: string) => {
      const line = text.split("\n").find((l) => l.startsWith(`${series} `));
      return line === undefined ? undefined : Number(line.slice(series.length + 1));
    };
    expect(value('kopek_http_requests_total{method="POST",route="/v1/invoices",status="201"}')).toBe(1);
    expect(value('kopek_http_requests_total{method="POST",route="/v1/invoices",status="200"}')).toBe(1);
    expect(value('kopek_http_requests_total{method="POST",route="/v1/invoices",status="422"}')).toBe(1);
    expect(
      value(
        'kopek_http_request_duration_seconds_count{method="POST",route="/v1/subscriptions",status="201"}',
      ),
    ).toBe(1);
    expect(value("kopek_idempotent_replays_total")).toBe(1);
    expect(value('kopek_idempotency_refusals_total{code="idempotency_key_reused"}')).toBe(1);
    // The first charge and the renewal, by the sandbox, both answered.
    expect(
      value(
        'kopek_provider_call_duration_seconds_count{provider="sandbox",operation="chargeStoredMethod",outcome="ok"}',
      ),
    ).toBe(2);
    expect(value('kopek_renewals_total{result="charged"}')).toBe(1);
    expect(text).toContain("kopek_process_resident_memory_bytes");
    // Routes by pattern only: no id, key or query ever becomes a label.
    expect(text).not.toContain(subscription.id);
    expect(text).not.toContain(apiKey);
  } finally {
    await cleanUp();
  }
}, 60_000);

// A payer who chose a method and never came back leaves a pending payment: counted at the next scrape,
// by age, from storage (so every instance on one database reports the same figure).
it("GET /metrics counts the payments pending at the provider, by age", async () => {
  const metrics = createKopekMetrics();
  const t = await buildTestApp({ metrics });
  const pending = async () => {
    await metrics.refreshPendingPayments(); // what the 15 s timer does
    const text = (await t.inject({ method: "GET", url: "/metrics" })).body;
    return /^kopek_pending_payments\{older_than_seconds="0"\} (\d+)$/m.exec(text)?.[1];
  };
  expect(await pending()).toBe("0");
  for (const method of ["card", "sbp"]) {
    const id = await createInvoice(t);
    const { token } = await openPage(t, id);
    expect((await submit(t, id, { token: token ?? "", method })).statusCode).toBe(303);
  }
  expect(await pending()).toBe("2");
  const text = (await t.inject({ method: "GET", url: "/metrics" })).body;
  expect(text).toContain('kopek_pending_payments{older_than_seconds="3600"} 0');
});

// API.md 10.1: a provider's word for other money settles nothing; the operator sees it on /metrics
// (by provider and kind) and in the log at error level with both amounts.
it("GET /metrics counts a provider's answer for another amount, logged at error level with both amounts", async () => {
  const metrics = createKopekMetrics();
  const t = await buildTestApp({
    metrics,
    // A provider that charges, then says it charged one kopeck more than asked.
    wrapProvider: (provider) => ({
      ...provider,
      chargeStoredMethod: (request) =>
        provider.chargeStoredMethod(request).map((charged) => ({
          ...charged,
          money: { ...request.money, amount: `${request.money.amount}1` },
        })),
    }),
  });
  const created = await t.post("/v1/subscriptions", subscriptionBody());
  expect(created.statusCode).toBe(201);
  expect(JSON.parse(created.body)).toMatchObject({ status: "incomplete", cyclesStarted: 0 });
  const text = (await t.inject({ method: "GET", url: "/metrics" })).body;
  expect(text).toContain('kopek_provider_amount_mismatch_total{provider="sandbox",kind="payment"} 1');
  const logged = t.logLines
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((line) => line.level === 50 && line.kind === "payment");
  expect(logged).toHaveLength(1);
  expect(logged[0]).toMatchObject({
    provider: "sandbox",
    expected: { amount: "149900", currency: "RUB" },
    answered: { amount: "1499001", currency: "RUB" },
    status: "succeeded",
  });
});

/** Storage that counts every call made to it. */
function countedStorage(): { storage: Storage; calls: () => number } {
  const inner = createMemoryStorage();
  let calls = 0;
  const storage = new Proxy(inner, {
    get(target, name, receiver) {
      const value = Reflect.get(target, name, receiver) as unknown;
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => {
        calls++;
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { storage, calls: () => calls };
}

// Issue 38 part 4: a scrape must not cost the database a query — Prometheus (or anyone who can reach
// /metrics) scraping often would otherwise load it. The pending payments are counted on a timer.
it("a scrape of /metrics makes no storage call: the pending payments are counted on an interval", async () => {
  const { storage, calls } = countedStorage();
  const t = await buildTestApp({ metrics: createKopekMetrics(), storage });
  try {
    const before = calls();
    for (let i = 0; i < 25; i++) {
      const scraped = await t.inject({ method: "GET", url: "/metrics" });
      expect(scraped.statusCode).toBe(200);
      expect(scraped.body).toContain('kopek_pending_payments{older_than_seconds="0"} 0');
    }
    expect(calls() - before).toBe(0);
  } finally {
    await t.app.close();
  }
});

it("/metrics carries the API's security headers", async () => {
  const t = await buildTestApp({ metrics: createKopekMetrics() });
  const scraped = await t.inject({ method: "GET", url: "/metrics" });
  expect(scraped.headers).toMatchObject({
    "x-content-type-options": "nosniff",
    "cache-control": "no-store",
    "referrer-policy": "no-referrer",
    "content-security-policy": "default-src 'none'; frame-ancestors 'none'",
  });
  expect(scraped.headers["x-request-id"]).toBeTruthy();
  await t.app.close();
});

const started = async (env: Record<string, string>) => {
  const config = loadConfig({ PORT: "0", LOG_LEVEL: "silent", KOPEK_WORKER: "off", ...env })._unsafeUnwrap();
  const running = await startServer(config, () => {});
  return running._unsafeUnwrap();
};

it("KOPEK_METRICS_TOKEN: a scrape without the bearer token is 401, with it 200", async () => {
  const token = "metrics-token-0123456789abcdef";
  const server = await started({ KOPEK_METRICS_TOKEN: token });
  try {
    const scrape = (authorization?: string) =>
      fetch(`${server.url}/metrics`, authorization === undefined ? {} : { headers: { authorization } });
    for (const refused of [undefined, "Bearer wrong", `Bearer ${token}x`, `Basic ${token}`, token]) {
      const answer = await scrape(refused);
      expect(answer.status).toBe(401);
      expect(answer.headers.get("content-type")).toBe("application/problem+json");
      expect(answer.headers.get("x-content-type-options")).toBe("nosniff");
      expect(await answer.text()).not.toContain("kopek_http_requests_total");
    }
    const allowed = await scrape(`bearer  ${token}`);
    expect(allowed.status).toBe(200);
    expect(await allowed.text()).toContain("kopek_http_requests_total");
  } finally {
    await server.close();
  }
});

it("KOPEK_METRICS_LISTEN: /metrics is served on its own address only, and counts the API's requests", async () => {
  const server = await started({ KOPEK_METRICS_LISTEN: "127.0.0.1:0" });
  try {
    expect(server.metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:[0-9]+$/);
    expect(server.metricsUrl).not.toBe(server.url);
    expect((await fetch(`${server.url}/metrics`)).status).toBe(404);
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    const scraped = await fetch(`${server.metricsUrl}/metrics`);
    expect(scraped.status).toBe(200);
    expect(scraped.headers.get("x-content-type-options")).toBe("nosniff");
    expect(await scraped.text()).toMatch(/kopek_http_requests_total\{[^}]*route="\/healthz"[^}]*\} 1/);
  } finally {
    await server.close();
  }
});
