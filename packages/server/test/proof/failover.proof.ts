import { randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { sandboxMethodFingerprint } from "@kopek/provider-sandbox";
import pg from "pg";
import { afterAll, expect, test } from "vitest";
import { type CliProcess, spawnCli } from "../cli-process.js";
import { readLedgerFile, setClockFile } from "../clock-file.js";
import { type ServerProcess, startServerProcess } from "../server-process.js";
import { type Acknowledged, driveCreates, makeRequests } from "./create-driver.js";
import { installHaTools, type PatroniCluster, startPatroniCluster } from "./patroni-cluster.js";
import { startSandboxProviderProcess, writeSandboxProject } from "./sandbox-project.js";
import { reportFigures } from "./verify-writes.js";

// Issue 40, docs/operations.md: the primary dies under load and nothing is lost. Three PostgreSQL
// nodes under Patroni with synchronous replication, behind HAProxy's primary port; two `kopek serve`
// and a `kopek worker` on that one endpoint; the sandbox provider in its own process, its charges in a
// ledger file. Each round moves the clock a month on (every subscription falls due, so the worker
// renews while the primary dies), then drives creates and refunds, retried with their keys as a
// client does, and kills the primary: its postmaster alone (Patroni restarts it) or its whole node
// group (Patroni fails over to the synchronous standby). Counted from the database and the ledger.
const LONG = process.env.KOPEK_PROOF_LONG === "1";
const ROUNDS: readonly ("postgres" | "node")[] = LONG
  ? ["node", "postgres", "node", "node", "postgres", "node"]
  : ["node", "postgres", "node", "node"];
const CREATES_PER_ROUND = LONG ? 400 : 120;
const MONTH_MS = 32 * 24 * 60 * 60_000;

const canRun = process.platform === "linux" && installHaTools();
if (!canRun)
  console.warn(
    "failover proof not run: it needs Linux with Patroni, etcd and HAProxy installed, or root to install them (docs/operations.md)",
  );
const scratch = await mkdtemp(join(tmpdir(), "kopek-failover-"));
const running: { kill(): Promise<void> | void }[] = [];
afterAll(async () => {
  for (const child of running.reverse()) await child.kill();
  await rm(scratch, { recursive: true, force: true });
});

interface Refunded {
  readonly paymentId: string;
  readonly key: string;
  readonly id: string;
}

test.runIf(canRun)(
  `failover: the primary killed ${ROUNDS.length}× under creates, renewals and refunds: nothing lost, nothing twice, only 503s`,
  { timeout: LONG ? 1_800_000 : 900_000 },
  async () => {
    const cluster: PatroniCluster = await startPatroniCluster({ synchronous: true });
    running.push({ kill: () => cluster.close() });
    const admin = new pg.Client({ connectionString: cluster.endpoint });
    await admin.connect();
    await admin.query("CREATE DATABASE kopek");
    await admin.end();
    const databaseUrl = cluster.endpoint.replace(/\/postgres$/, "/kopek");

    const ledgerFile = join(scratch, "ledger.jsonl");
    const provider = await startSandboxProviderProcess(ledgerFile, 10);
    running.push({ kill: () => void provider.cli.child.kill("SIGKILL") });
    const { apiKey, projectsFile } = await writeSandboxProject(scratch, "failover", {
      url: provider.url,
      storedMethodCharge: true,
    });
    const clockFile = join(scratch, "clock");
    // The servers' time: the wall clock plus `shifted`, moved on a month per round.
    let shifted = 0;
    await setClockFile(clockFile, new Date());
    const env = {
      DATABASE_URL: databaseUrl,
      KOPEK_PROJECTS_FILE: projectsFile,
      KOPEK_ENCRYPTION_KEY: Buffer.alloc(32, 9).toString("base64"),
      KOPEK_TEST_CLOCK_FILE: clockFile,
      NODE_ENV: "test",
      KOPEK_WORKER: "off",
      // A request cut off with its connection cannot release its key: it is free again when its lease
      // ends. Short here, so a client's retry gets through within the proof's time.
      KOPEK_IDEMPOTENCY_LEASE_MS: "2000",
    };
    const servers: ServerProcess[] = [];
    for (let i = 0; i < 2; i++) {
      const server = await startServerProcess(env);
      running.push(server);
      servers.push(server);
    }
    const worker: CliProcess = spawnCli(["worker"], { ...env, KOPEK_WORKER_INTERVAL_MS: "100" });
    running.push({ kill: () => void worker.child.kill("SIGKILL") });
    // A hang guard sized for a busy machine, as a server start's: 30 s was short once, beside a typecheck of every package.
    await worker.waitFor(/"renewal worker started"/, 60_000);

    let turn = 0;
    const url = () => servers[turn++ % servers.length]?.url ?? null;
    const statuses: Record<number, number> = {};
    const acknowledged: Acknowledged[] = [];
    const refunds: Refunded[] = [];
    /** Per round: what died, the longest pause in acknowledged creates after the kill (ms), ms until three nodes again. */
    const failovers: { kind: string; downMs: number; healthyMs: number }[] = [];

    for (const [round, kind] of ROUNDS.entries()) {
      // Nothing in flight: a month on, every subscription is due and the worker starts renewing.
      shifted += MONTH_MS;
      await setClockFile(clockFile, new Date(Date.now() + shifted));
      const victim = await cluster.primary();
      if (victim === null) throw new Error("no primary at the start of a round");
      let killedAt = 0;
      const kill = (async () => {
        await sleep(1500);
        killedAt = Date.now();
        if (kind === "node") cluster.killNode(victim);
        else cluster.killPostgres(victim);
      })();
      const refunding = driveRefunds(url, apiKey, acknowledged.slice(-40), statuses).then((made) =>
        refunds.push(...made),
      );
      const ackedAt: number[] = [];
      const drive = await driveCreates({
        requests: makeRequests(CREATES_PER_ROUND),
        concurrency: 6,
        paceMs: 40,
        apiKey,
        url,
        onProgress: () => ackedAt.push(Date.now()),
      });
      await Promise.all([kill, refunding]);
      for (const [status, n] of Object.entries(drive.statuses))
        statuses[Number(status)] = (statuses[Number(status)] ?? 0) + n;
      acknowledged.push(...drive.acknowledged);
      // Back to three nodes before the next round: the dead group rejoins as a replica.
      // Time to recover: the longest pause in acknowledged creates that ends after the kill (a
      // create in flight at the kill can still be acknowledged before the outage shows).
      const downMs = Math.max(
        0,
        ...ackedAt.slice(1).map((at, i) => (at > killedAt ? at - Math.max(ackedAt[i] ?? at, killedAt) : 0)),
      );
      if (kind === "node") cluster.restartNode(victim);
      const healthyMs = await cluster.waitHealthy(180_000);
      failovers.push({ kind: `${kind} of ${victim.name} (round ${round + 1})`, downMs, healthyMs });
    }

    // Every renewal due settles: the worker finishes what it started before a kill (its lease).
    const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
    try {
      const settled = async () =>
        Number(
          (
            await pool.query<{ n: string }>(
              `SELECT count(*) AS n FROM subscriptions
               WHERE status = 'active' AND next_charge_at <= $1`,
              [new Date(Date.now() + shifted + 5000)],
            )
          ).rows[0]?.n,
        ) === 0;
      // The worker settles what a kill left pending when its lease ends or the reconciler asks: on a
      // busy machine that has taken over two minutes.
      const deadline = Date.now() + 300_000;
      while (!(await settled()) && Date.now() < deadline) await sleep(500);

      const figures = await countFromBooks(pool, acknowledged, refunds, ledgerFile);
      reportFigures(LONG ? "failover-long" : "failover", {
        rounds: ROUNDS.length,
        failovers,
        creates: acknowledged.length,
        refunds: refunds.length,
        statuses,
        ...figures,
      });
      expect(acknowledged).toHaveLength(ROUNDS.length * CREATES_PER_ROUND);
      expect(Object.keys(statuses).filter((s) => Number(s) >= 500 && s !== "503")).toEqual([]);
      expect(figures.lostAcknowledged).toBe(0);
      expect(figures.doubleCharges).toBe(0);
      expect(figures.chargesWithoutPayment).toBe(0);
      expect(figures.doubleRefunds).toBe(0);
      expect(figures.lostRefunds).toBe(0);
      expect(figures.stuckKeys).toBe(0);
      expect(figures.renewals).toBeGreaterThan(0);
      // Every process lived through every failover by itself.
      expect([...servers.map((s) => s.cli.child.exitCode), worker.child.exitCode]).toEqual([
        null,
        null,
        null,
      ]);
    } finally {
      await pool.end();
    }
  },
);

/** One refund (a part) of each subscription's first payment, each retried with its key until answered. */
async function driveRefunds(
  url: () => string | null,
  apiKey: string,
  subscriptions: readonly Acknowledged[],
  statuses: Record<number, number>,
): Promise<Refunded[]> {
  const made: Refunded[] = [];
  for (const subscription of subscriptions.filter((a) => a.route === "/v1/subscriptions")) {
    const key = `proof-refund-${randomUUID()}`;
    let paymentId: string | null = null;
    for (let attempt = 0; attempt < 600; attempt++) {
      const base = url();
      if (base === null) continue;
      try {
        if (paymentId === null) {
          const listed = await fetch(`${base}/v1/payments?subscriptionId=${subscription.id}&limit=100`, {
            headers: { authorization: `Bearer ${apiKey}` },
            signal: AbortSignal.timeout(10_000),
          });
          if (listed.status !== 200) {
            await listed.body?.cancel();
            await sleep(100);
            continue;
          }
          const payments = ((await listed.json()) as { data: { id: string; cycle: number }[] }).data;
          paymentId = payments.find((p) => p.cycle === 1)?.id ?? null;
          if (paymentId === null) break;
        }
        const answer = await fetch(`${base}/v1/payments/${paymentId}/refunds`, {
          method: "POST",
          headers: {
            authorization: `Bearer ${apiKey}`,
            "content-type": "application/json",
            "idempotency-key": key,
          },
          body: JSON.stringify({ amount: { amount: "100", currency: "RUB" } }),
          signal: AbortSignal.timeout(10_000),
        });
        statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
        const text = await answer.text();
        if (answer.status === 201 || answer.status === 200) {
          made.push({ paymentId, key, id: (JSON.parse(text) as { id: string }).id });
          break;
        }
        if (answer.status !== 409 && answer.status < 500)
          throw new Error(`refund got ${answer.status}: ${text}`);
      } catch (error) {
        if (error instanceof Error && error.message.startsWith("refund got")) throw error;
      }
      await sleep(100);
    }
  }
  return made;
}

/** What the database and the provider's ledger say once everything settled. */
async function countFromBooks(
  pool: pg.Pool,
  acknowledged: readonly Acknowledged[],
  refunds: readonly Refunded[],
  ledgerFile: string,
) {
  const count = async (sql: string, values: unknown[] = []) =>
    Number((await pool.query<{ n: string }>(sql, values)).rows[0]?.n ?? 0);
  let lostAcknowledged = 0;
  for (const ack of acknowledged) {
    const table = ack.route === "/v1/subscriptions" ? "subscriptions" : "invoices";
    if ((await count(`SELECT count(*) AS n FROM ${table} WHERE id = $1`, [ack.id])) !== 1)
      lostAcknowledged += 1;
  }
  // Charges at the provider per method ref, against the succeeded payments Kopek holds for it.
  const ledger = await readLedgerFile(ledgerFile);
  const charged = new Map<string, number>();
  for (const line of ledger)
    charged.set(line.methodFingerprint, (charged.get(line.methodFingerprint) ?? 0) + 1);
  let doubleCharges = 0;
  let chargesWithoutPayment = 0;
  let renewals = 0;
  for (const ack of acknowledged.filter((a) => a.route === "/v1/subscriptions")) {
    const atProvider = charged.get(sandboxMethodFingerprint(String(ack.body.providerMethodRef))) ?? 0;
    const recorded = await count(
      "SELECT count(*) AS n FROM payments WHERE subscription_id = $1 AND status = 'succeeded'",
      [ack.id],
    );
    renewals += Math.max(recorded - 1, 0);
    if (atProvider > recorded) {
      // More charges than cycles recorded: twice for one cycle, or a charge Kopek has no Payment for.
      const cycles = await count(
        "SELECT count(DISTINCT cycle) AS n FROM payments WHERE subscription_id = $1",
        [ack.id],
      );
      if (atProvider > cycles) doubleCharges += 1;
      else chargesWithoutPayment += 1;
    }
  }
  let doubleRefunds = 0;
  let lostRefunds = 0;
  for (const refund of refunds) {
    if ((await count("SELECT count(*) AS n FROM refunds WHERE id = $1", [refund.id])) !== 1) lostRefunds += 1;
    if ((await count("SELECT count(*) AS n FROM refunds WHERE payment_id = $1", [refund.paymentId])) !== 1)
      doubleRefunds += 1;
  }
  return {
    lostAcknowledged,
    doubleCharges,
    chargesWithoutPayment,
    renewals,
    ledgerCharges: ledger.length,
    doubleRefunds,
    lostRefunds,
    stuckKeys: await count("SELECT count(*) AS n FROM idempotency_records WHERE state = 'in_progress'"),
  };
}
