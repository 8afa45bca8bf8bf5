import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { addPeriods, createUuidV7Generator, type Subscription } from "@kopek/core";
import { createPostgresStorage, createTokenCipher, migrate } from "@kopek/storage-postgres";
import { sampleProject, sampleSubscription } from "@kopek/testing";
import { afterAll, describe, expect, it } from "vitest";
import { openTestDatabase } from "../../storage-postgres/test/database.js";
import { encryptionKeyId } from "../src/startup/encryption-key.js";
import { type CliProcess, spawnCli } from "./cli-process.js";
import { readLedgerFile, setClockFile } from "./clock-file.js";

const db = await openTestDatabase();
const scratch = await mkdtemp(join(tmpdir(), "kopek-workers-"));
const workers: CliProcess[] = [];
afterAll(async () => {
  for (const worker of workers) worker.child.kill("SIGKILL");
  await Promise.all(workers.map((worker) => worker.exited));
  await db.close();
  await rm(scratch, { recursive: true, force: true });
});

describe("kopek worker", () => {
  it("needs DATABASE_URL: memory storage lives in the serving process", async () => {
    const cli = spawnCli(["worker"]);
    expect(await cli.exited).toBe(1);
    expect(cli.stderr()).toMatch(/^kopek: kopek worker needs DATABASE_URL/);
    // A process start: on a loaded 2-core machine, loading the CLI alone took over 5 s once.
  }, 30_000);
});

describe.runIf(db.isRealServer)("kopek worker and its database (real server only)", () => {
  // Found by the failover proof (issue 40): every job's timer is unref'd, so once the pool's idle
  // connections were gone — closed by the database, an outage, or simply idle for 10 s between ticks
  // of a long interval — nothing held the process, and `kopek worker` exited with code 0, silently.
  it("keeps running when its connections are cut between ticks, until a signal stops it", {
    timeout: 60_000,
  }, async () => {
    await migrate(db.pool);
    const worker = spawnCli(["worker"], {
      DATABASE_URL: db.url ?? "",
      KOPEK_ENCRYPTION_KEY: randomBytes(32).toString("base64"),
      KOPEK_WORKER_INTERVAL_MS: "30000",
    });
    workers.push(worker);
    await worker.waitFor(/"msg":"renewal worker started"/, 30_000);
    await sleep(500); // the first tick's queries are done: the pool holds idle connections only
    const cut = await db.pool.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
       WHERE datname = current_database() AND pid <> pg_backend_pid() AND application_name = ''`,
    );
    expect(cut.rowCount).toBeGreaterThan(0);
    await sleep(2000);
    expect(worker.child.exitCode).toBeNull();
    worker.child.kill("SIGTERM");
    expect(await worker.exited).toBe(0);
  });
});

const SUBSCRIPTIONS = 1000;
const ANCHOR = new Date("2027-01-31T10:00:00.000Z");

// Several processes on one database: only a real PostgreSQL server has them.
describe.runIf(db.isRealServer)(
  "two kopek worker processes over 1,000 due subscriptions (real server only)",
  () => {
    it("charge every subscription exactly once", { timeout: 60_000 }, async () => {
      await migrate(db.pool);
      const key = randomBytes(32);
      const id = encryptionKeyId(key);
      const encryption = createTokenCipher({ keys: [{ id, key }], currentKeyId: id });
      const storage = createPostgresStorage({ pool: db.pool, encryption });
      const project = sampleProject();
      (await storage.saveProject(project))._unsafeUnwrap();
      const ids = createUuidV7Generator();
      const due = addPeriods(ANCHOR, { unit: "month", count: 1 }, 1);
      const subscriptions: Subscription[] = Array.from({ length: SUBSCRIPTIONS }, (_, i) =>
        sampleSubscription(project.id, {
          id: ids.newId(),
          providerMethodRef: `pm_race_${i}`,
          startedAt: ANCHOR,
          createdAt: ANCHOR,
          lastChargedAt: ANCHOR,
          nextChargeAt: due,
          nextAttemptAt: due,
        }),
      );
      for (let i = 0; i < SUBSCRIPTIONS; i += 50) {
        await Promise.all(subscriptions.slice(i, i + 50).map((s) => insert(storage, s)));
      }

      const clockFile = join(scratch, "clock");
      const ledgerFile = join(scratch, "ledger.jsonl");
      await setClockFile(clockFile, ANCHOR); // nothing is due yet: both workers start before the race
      const env = {
        NODE_ENV: "test",
        DATABASE_URL: db.url ?? "",
        KOPEK_ENCRYPTION_KEY: key.toString("base64"),
        KOPEK_TEST_CLOCK_FILE: clockFile,
        KOPEK_SANDBOX_LEDGER_FILE: ledgerFile,
        KOPEK_WORKER_INTERVAL_MS: "50",
      };
      const pair = [spawnCli(["worker"], env), spawnCli(["worker"], env)];
      workers.push(...pair);
      await Promise.all(pair.map((worker) => worker.waitFor(/"msg":"renewal worker started"/, 30_000)));

      const started = Date.now();
      await setClockFile(clockFile, new Date(due.getTime() + 1000));
      while ((await readLedgerFile(ledgerFile)).length < SUBSCRIPTIONS && Date.now() - started < 40_000) {
        await sleep(50);
      }
      const elapsed = Date.now() - started;
      await sleep(500); // long enough for a double charge to show
      for (const worker of pair) worker.child.kill("SIGTERM");
      expect(await Promise.all(pair.map((worker) => worker.exited))).toEqual([0, 0]);

      const charges = await readLedgerFile(ledgerFile);
      const attempts = pair.map((w) => w.stdout().match(/"msg":"renewal attempted"/g)?.length ?? 0);
      console.info(
        `two workers: ${charges.length} charges in ${elapsed} ms; attempts per worker ${attempts.join(" + ")}`,
      );
      expect(charges).toHaveLength(SUBSCRIPTIONS);
      expect(new Set(charges.map((charge) => charge.methodFingerprint)).size).toBe(SUBSCRIPTIONS);
      expect(attempts.reduce((sum, count) => sum + count, 0)).toBe(SUBSCRIPTIONS);
      expect(attempts.every((count) => count > 0)).toBe(true);
      const { rows } = await db.queryAcrossProjects<{ cycles: number; count: string }>(
        "SELECT cycles_started AS cycles, count(*) FROM subscriptions GROUP BY 1",
      );
      expect(rows).toEqual([{ cycles: 2, count: String(SUBSCRIPTIONS) }]);
    });
  },
);

async function insert(storage: ReturnType<typeof createPostgresStorage>, subscription: Subscription) {
  const claim = {
    projectId: subscription.projectId,
    key: `seed-${subscription.id}`,
    fingerprint: "seed",
    recordId: subscription.id,
    leaseToken: subscription.id,
    now: ANCHOR,
    leaseExpiresAt: new Date(ANCHOR.getTime() + 60_000),
    expiresAt: new Date(ANCHOR.getTime() + 86_400_000),
    apiKeyId: null,
  };
  (await storage.claimIdempotencyKey(claim))._unsafeUnwrap();
  const response = { status: 201, headers: {}, body: "{}" };
  const completion = {
    ...claim,
    response,
    resource: { kind: "subscription" as const, subscription },
    events: [],
    payments: [],
  };
  (await storage.completeIdempotencyKey(completion))._unsafeUnwrap();
}
