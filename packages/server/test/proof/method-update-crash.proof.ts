import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, expect, test } from "vitest";
import { SANDBOX_DECIDE_PATH } from "../../src/startup/sandbox-provider-command.js";
import { type CrashingServer, crashingServer, driveWithCrashes } from "./crash-drive.js";
import { openCrashProof } from "./crash-proof-fixture.js";
import { type DrivenRequest, makeSubscriptionRequests } from "./create-driver.js";
import { crashProofServer } from "./sandbox-project.js";
import { reportFigures } from "./verify-writes.js";

// Crash test of method updates (API.md 11.5, issue 41 part 8): payers save a new card through their
// links — Kopek's page, the sandbox (its own process) confirming the check, back to Kopek — while the
// server is SIGKILLed at random moments and restarted; each payer goes on from wherever the crash left
// them (the page again, or the return again). Every subscription gets its new method once, every
// check that moved money is refunded exactly once, and nothing is left half-done.
const LONG = process.env.KOPEK_PROOF_LONG === "1";
const SUBSCRIPTIONS = LONG ? 500 : 100;
const CRASHES = LONG ? 8 : 4;
const CONCURRENCY = 12;
const UPDATED = "Payment method updated";

const { db, scratch, provider, onServer, close } = await openCrashProof("method-crash");
afterAll(close);

interface Journey {
  /** HTTP requests made to Kopek, and how many got no answer or a 5xx. */
  requests: number;
  failed: number;
  /** Methods chosen (verification payments asked for). */
  choices: number;
}

/** What one payer does until their link's page says the method is updated, whatever the server does. */
async function savesNewCard(target: CrashingServer, link: string, figures: Journey): Promise<void> {
  const path = new URL(link).pathname;
  let returnPath: string | null = null;
  const deadline = Date.now() + 120_000;
  const ask = async (rel: string, init: RequestInit = {}) => {
    const base = target.url();
    if (base === null) return null;
    figures.requests += 1;
    try {
      const response = await fetch(`${base}${rel}`, {
        ...init,
        redirect: "manual",
        headers: { "accept-language": "en", ...(init.headers ?? {}) },
        signal: AbortSignal.timeout(15_000),
      });
      const body = await response.text();
      if (response.status >= 500) figures.failed += 1;
      return { status: response.status, body, location: response.headers.get("location"), base };
    } catch {
      figures.failed += 1;
      return null;
    }
  };
  while (Date.now() < deadline) {
    if (returnPath !== null) {
      const back = await ask(returnPath);
      if (back?.body.includes(UPDATED)) return;
      // Still deciding, or no answer: back again; a page that offers the form again starts over.
      if (back === null || back.status >= 500 || back.status === 202) {
        await sleep(50);
        continue;
      }
      returnPath = null;
    }
    const page = await ask(path);
    if (page === null || page.status >= 500) {
      await sleep(50);
      continue;
    }
    if (page.body.includes(UPDATED)) return;
    const token = /name="token" value="([^"]+)"/.exec(page.body)?.[1];
    if (token === undefined)
      throw new Error(`the page of ${link} offers no form: ${page.body.slice(0, 300)}`);
    figures.choices += 1;
    const chosen = await ask(path, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: page.base },
      body: new URLSearchParams({ token, method: "card" }).toString(),
    });
    if (chosen === null || chosen.status !== 303 || chosen.location === null) {
      await sleep(50);
      continue;
    }
    // At the sandbox: the payer confirms the check, and is sent back to Kopek's return address.
    const providerPaymentId = /\/sandbox\/checkout\/([^/?]+)/.exec(chosen.location)?.[1] ?? "";
    const decided = await fetch(`${provider.url}${SANDBOX_DECIDE_PATH}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ providerPaymentId, decision: "succeed" }),
    });
    const { returnUrl } = (await decided.json()) as { returnUrl: string };
    const back = new URL(returnUrl);
    returnPath = `${back.pathname}${back.search}`;
  }
  throw new Error(`the payer of ${link} never saw the method updated`);
}

test.runIf(db.isRealServer)(
  `method-update crash test: ${SUBSCRIPTIONS} payers save a new card, ${CRASHES} SIGKILLs, each put on once, each check refunded once`,
  { timeout: LONG ? 900_000 : 240_000 },
  async () => {
    const { apiKey, env } = await crashProofServer(scratch, "method-crash", provider.url, db.url ?? "", {
      // The reconciler retries a refund a crash left unanswered.
      KOPEK_WORKER: "on",
      KOPEK_WORKER_INTERVAL_MS: "500",
    });
    const started = Date.now();
    const creates = makeSubscriptionRequests(SUBSCRIPTIONS);
    const made = await driveWithCrashes({
      env,
      apiKey,
      requests: creates,
      crashes: 0,
      concurrency: 16,
      onServer,
    });
    const asks: DrivenRequest[] = made.acknowledged.map((ack) => ({
      key: `proof-link-${crypto.randomUUID()}`,
      route: `/v1/subscriptions/${ack.id}/method-update`,
      body: {},
    }));
    const linked = await driveWithCrashes({
      env,
      apiKey,
      requests: asks,
      crashes: 0,
      concurrency: 16,
      server: made.server,
      onServer,
    });
    const links = linked.acknowledged.map((ack) => (JSON.parse(ack.responseBody) as { url: string }).url);

    const target = await crashingServer({
      env,
      crashes: CRASHES,
      total: links.length,
      server: linked.server,
      onServer,
    });
    const journey: Journey = { requests: 0, failed: 0, choices: 0 };
    let done = 0;
    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < links.length) {
          const link = links[next++] as string;
          await savesNewCard(target, link, journey);
          done += 1;
          target.progress(done);
        }
      }),
    );
    await target.settled();

    // Refunds a crash left unanswered are retried by the reconciler a minute after they were made.
    const count = async (sql: string) => Number((await db.pool.query<{ n: string }>(sql)).rows[0]?.n ?? 0);
    const pendingRefunds = "SELECT count(*) AS n FROM refunds WHERE status = 'pending'";
    const waitUntil = Date.now() + 150_000;
    while ((await count(pendingRefunds)) > 0 && Date.now() < waitUntil) await sleep(1000);

    const figures = {
      payers: links.length,
      crashesInjected: target.crashes(),
      pageRequests: journey.requests,
      failedRequests: journey.failed,
      methodsChosen: journey.choices,
      methodsPutOn: await count(
        "SELECT count(*) AS n FROM subscriptions WHERE method_update->>'completedBy' IS NOT NULL",
      ),
      methodUpdatedEvents: await count(
        "SELECT count(*) AS n FROM events WHERE type = 'subscription.method_updated'",
      ),
      subscriptionsWithTwoEvents: await count(
        "SELECT count(*) AS n FROM (SELECT data->>'id' FROM events WHERE type = 'subscription.method_updated' GROUP BY 1 HAVING count(*) > 1) t",
      ),
      checksSucceeded: await count(
        "SELECT count(*) AS n FROM payments WHERE kind = 'verification' AND status = 'succeeded'",
      ),
      checksKept: await count(
        "SELECT count(*) AS n FROM payments WHERE kind = 'verification' AND status = 'succeeded' AND amount_refunded <> amount",
      ),
      checksRefundedTwice: await count(
        "SELECT count(*) AS n FROM (SELECT payment_id FROM refunds GROUP BY 1 HAVING count(*) > 1) t",
      ),
      checksPending: await count(
        "SELECT count(*) AS n FROM payments WHERE kind = 'verification' AND status = 'pending'",
      ),
      pendingRefunds: await count(pendingRefunds),
      stuckKeys: await count("SELECT count(*) AS n FROM idempotency_records WHERE state = 'in_progress'"),
      durationMs: Date.now() - started,
    };
    reportFigures(LONG ? "method-update-crash-long" : "method-update-crash", figures);
    expect(target.crashes()).toBe(CRASHES);
    expect(figures.methodsPutOn).toBe(SUBSCRIPTIONS);
    expect(figures.subscriptionsWithTwoEvents).toBe(0);
    expect(figures.methodUpdatedEvents).toBeGreaterThanOrEqual(SUBSCRIPTIONS);
    expect(figures.checksKept).toBe(0);
    expect(figures.checksRefundedTwice).toBe(0);
    expect(figures.pendingRefunds).toBe(0);
    expect(figures.stuckKeys).toBe(0);
  },
);
