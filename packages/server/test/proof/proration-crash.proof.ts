import { sandboxMethodFingerprint } from "@kopek/provider-sandbox";
import { afterAll, expect, test } from "vitest";
import { driveWithCrashes } from "./crash-drive.js";
import { openCrashProof } from "./crash-proof-fixture.js";
import { type DrivenRequest, makeSubscriptionRequests } from "./create-driver.js";
import { crashProofServer } from "./sandbox-project.js";
import { ledgerCounts, reportFigures } from "./verify-writes.js";

// Crash test of prorations (API.md 11.3, issue 41 part 8): subscriptions raised mid-cycle with
// `proration: charge_now` while the server is SIGKILLed at random moments and restarted, a client
// retrying every unanswered request with its key. Every change is made once, with its prorated
// difference charged once at the provider: never lost, never twice.
const LONG = process.env.KOPEK_PROOF_LONG === "1";
const SUBSCRIPTIONS = LONG ? 1000 : 200;
const CRASHES = LONG ? 10 : 4;
const CONCURRENCY = 16;

const { db, scratch, ledgerFile, provider, onServer, close } = await openCrashProof("proration-crash");
afterAll(close);

test.runIf(db.isRealServer)(
  `proration crash test: ${SUBSCRIPTIONS} raises charged now, ${CRASHES} SIGKILLs, each charged and made exactly once`,
  { timeout: LONG ? 900_000 : 180_000 },
  async () => {
    const { apiKey, env } = await crashProofServer(scratch, "proration-crash", provider.url, db.url ?? "");
    const started = Date.now();
    // The subscriptions, made without faults: each charged once at creation.
    const creates = makeSubscriptionRequests(SUBSCRIPTIONS);
    const first = await driveWithCrashes({
      env,
      apiKey,
      requests: creates,
      crashes: 0,
      concurrency: CONCURRENCY,
      onServer,
    });
    const raises: DrivenRequest[] = first.acknowledged.map((ack) => ({
      key: `proof-raise-${crypto.randomUUID()}`,
      route: `/v1/subscriptions/${ack.id}`,
      body: { amount: { amount: "299900", currency: "RUB" }, proration: "charge_now" },
    }));
    const drive = await driveWithCrashes({
      env,
      apiKey,
      requests: raises,
      crashes: CRASHES,
      concurrency: CONCURRENCY,
      server: first.server,
      onServer,
    });

    // What the provider's books and the database say of each subscription.
    const charges = ledgerCounts(ledgerFile);
    const refOf = new Map(first.acknowledged.map((ack) => [ack.id, String(ack.body.providerMethodRef)]));
    let lostChanges = 0;
    let doubleCharges = 0;
    let unchargedRaises = 0;
    for (const ack of drive.acknowledged) {
      const id = ack.id;
      const { rows } = await db.pool.query<{ amount: string; prorations: string }>(
        `SELECT s.amount::text AS amount,
                (SELECT count(*) FROM payments p
                  WHERE p.project_id = s.project_id AND p.subscription_id = s.id
                    AND p.kind = 'proration' AND p.status = 'succeeded') AS prorations
           FROM subscriptions s WHERE s.id = $1`,
        [id],
      );
      if (rows[0]?.amount !== "299900") lostChanges += 1;
      const made = charges.get(sandboxMethodFingerprint(refOf.get(id) ?? "")) ?? 0;
      if (made > 2 || Number(rows[0]?.prorations ?? 0) > 1) doubleCharges += 1;
      if (made < 2 || Number(rows[0]?.prorations ?? 0) < 1) unchargedRaises += 1;
    }
    const count = async (sql: string) => Number((await db.pool.query<{ n: string }>(sql)).rows[0]?.n ?? 0);
    const figures = {
      subscriptions: first.acknowledged.length,
      raises: drive.requests,
      attempts: drive.attempts,
      unansweredAttempts: drive.unanswered,
      crashesInjected: drive.crashes,
      statuses: drive.statuses,
      lostChanges,
      doubleCharges,
      unchargedRaises,
      refundedProrations: await count(
        "SELECT count(*) AS n FROM refunds r JOIN payments p ON p.project_id = r.project_id AND p.id = r.payment_id WHERE p.kind = 'proration'",
      ),
      stuckKeys: await count("SELECT count(*) AS n FROM idempotency_records WHERE state = 'in_progress'"),
      ledgerCharges: [...charges.values()].reduce((sum, n) => sum + n, 0),
      durationMs: Date.now() - started,
    };
    reportFigures(LONG ? "proration-crash-long" : "proration-crash", figures);
    expect(first.acknowledged).toHaveLength(SUBSCRIPTIONS);
    expect(drive.crashes).toBe(CRASHES);
    expect(drive.acknowledged).toHaveLength(SUBSCRIPTIONS);
    expect(lostChanges).toBe(0);
    expect(doubleCharges).toBe(0);
    expect(unchargedRaises).toBe(0);
    expect(figures.refundedProrations).toBe(0);
    expect(figures.stuckKeys).toBe(0);
    expect(figures.ledgerCharges).toBe(2 * SUBSCRIPTIONS);
  },
);
