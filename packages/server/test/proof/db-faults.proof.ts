import { execFile } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import { mkdirSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { promisify } from "node:util";
import { generateApiKey, hashApiKey } from "@kopek/core";
import pg from "pg";
import { afterAll, expect, test } from "vitest";
import { type ServerProcess, startServerProcess } from "../server-process.js";
import { ARTIFACTS_ROOT } from "../test-artifacts.js";
import { driveCreates, makeRequests } from "./create-driver.js";
import { controlCluster, localCluster, waitForPostgres } from "./postgres-control.js";
import { reportFigures, verifyWrites } from "./verify-writes.js";

// Database faults (docs/reliability.md): PostgreSQL itself is stopped and started again under load.
// The server must answer 503 (and /readyz 503) while it is down, recover by itself, lose nothing.
const LONG = process.env.KOPEK_PROOF_LONG === "1";
const REQUESTS = LONG ? 3000 : 400;
const RESTARTS = LONG ? 4 : 2;
const DOWN_MS = LONG ? 4000 : 2000;
const ADMIN_URL = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

const canRun = await (async () => {
  if (localCluster() === null || process.env.TEST_DATABASE_URL === "pglite") return false;
  const probe = new pg.Client({ connectionString: ADMIN_URL, connectionTimeoutMillis: 1500 });
  probe.on("error", () => {});
  return probe.connect().then(
    () => probe.end().then(() => true),
    () => false,
  );
})();

const name = `kopek_proof_${randomBytes(6).toString("hex")}`;
const databaseUrl = Object.assign(new URL(ADMIN_URL), { pathname: `/${name}` }).toString();
const scratch = await mkdtemp(join(tmpdir(), "kopek-dbfault-"));
let server: ServerProcess | null = null;
const admin = async <T>(work: (client: pg.Client) => Promise<T>): Promise<T> => {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  client.on("error", () => {});
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end().catch(() => {});
  }
};
afterAll(async () => {
  await server?.kill();
  if (!canRun) return;
  await controlCluster("start").catch(() => {}); // whatever happened, PostgreSQL is left running
  await waitForPostgres(ADMIN_URL);
  mkdirSync(join(ARTIFACTS_ROOT, "dumps"), { recursive: true });
  await promisify(execFile)("pg_dump", [
    "--no-owner",
    "--file",
    join(ARTIFACTS_ROOT, "dumps", `${name}.sql`),
    databaseUrl,
  ]).catch(() => {});
  await admin((client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
  await rm(scratch, { recursive: true, force: true });
});

test.runIf(canRun)(
  `database faults: PostgreSQL restarted ${RESTARTS}× under ${REQUESTS} creates: 503 while down, recovery, nothing lost`,
  { timeout: LONG ? 900_000 : 120_000 },
  async () => {
    await admin((client) => client.query(`CREATE DATABASE ${name}`));
    const apiKey = generateApiKey();
    const projectsFile = join(scratch, "projects.json");
    const ledgerFile = join(scratch, "ledger.jsonl");
    const project = {
      id: randomUUID(),
      name: "dbfault",
      provider: { kind: "sandbox" },
      apiKeys: [{ sha256: hashApiKey(apiKey) }],
    };
    await writeFile(projectsFile, JSON.stringify({ projects: [project] }));
    server = await startServerProcess({
      DATABASE_URL: databaseUrl,
      KOPEK_PROJECTS_FILE: projectsFile,
      KOPEK_SANDBOX_LEDGER_FILE: ledgerFile,
      KOPEK_SANDBOX_LATENCY_MS: "5",
      KOPEK_ENCRYPTION_KEY: Buffer.alloc(32, 5).toString("base64"),
      KOPEK_WORKER: "off",
      // A request cut off by the outage cannot release its key (the database is gone): the key is
      // free again when its lease runs out. Short here, so retries get through within the CI budget.
      KOPEK_IDEMPOTENCY_LEASE_MS: "2000",
    });
    const url = server.url;

    // /readyz, polled all along: what an orchestrator would see.
    const readiness: Array<{ at: number; status: number; down: boolean }> = [];
    let down = false;
    let polling = true;
    const poller = (async () => {
      while (polling) {
        const status = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(10_000) }).then(
          (response) => response.status,
          () => 0,
        );
        readiness.push({ at: Date.now(), status, down });
        await sleep(50);
      }
    })();

    const restartPoints = Array.from({ length: RESTARTS }, (_, i) =>
      Math.floor(((i + 0.3 + Math.random() * 0.4) / RESTARTS) * REQUESTS * 0.8),
    );
    let restarts = 0;
    let faulting = false;
    let fault: Promise<void> = Promise.resolve();
    const recoveriesMs: number[] = [];
    const recoveries: Promise<void>[] = [];
    const restart = async () => {
      await controlCluster("stop");
      down = true;
      await sleep(DOWN_MS);
      // PostgreSQL may accept connections before pg_ctlcluster returns: "down" ends when start begins.
      down = false;
      const upAt = Date.now();
      await controlCluster("start");
      restarts += 1;
      // Recovered: the first /readyz 200 after the start, without anyone touching the server.
      recoveries.push(
        (async () => {
          while (!readiness.some((r) => r.at > upAt && r.status === 200)) await sleep(20);
          recoveriesMs.push((readiness.find((r) => r.at > upAt && r.status === 200)?.at ?? upAt) - upAt);
        })(),
      );
    };
    const started = Date.now();
    const drive = await driveCreates({
      requests: makeRequests(REQUESTS),
      concurrency: 8,
      paceMs: 60,
      apiKey,
      url: () => url,
      onProgress: (acknowledged) => {
        if (faulting || restarts >= RESTARTS || acknowledged < (restartPoints[restarts] ?? Infinity)) return;
        faulting = true;
        fault = restart().finally(() => {
          faulting = false;
        });
      },
    });
    await fault;
    await Promise.all(recoveries);
    polling = false;
    await poller;

    const pool = new pg.Pool({ connectionString: databaseUrl });
    const writes = await verifyWrites(pool, drive.acknowledged, ledgerFile).finally(() => pool.end());
    const readyWhileDown = readiness.filter((r) => r.down).map((r) => r.status);
    const figures = {
      requests: drive.requests,
      attempts: drive.attempts,
      faultsInjected: restarts,
      downtimeMsEach: DOWN_MS,
      statuses: drive.statuses,
      readyzWhileDown: Object.fromEntries(
        [...new Set(readyWhileDown)].map((s) => [s, readyWhileDown.filter((x) => x === s).length]),
      ),
      recoveryMs: recoveriesMs,
      ...writes,
      durationMs: Date.now() - started,
    };
    reportFigures(LONG ? "db-faults-long" : "db-faults", figures);
    expect(restarts).toBe(RESTARTS);
    expect(drive.acknowledged).toHaveLength(REQUESTS);
    expect(drive.statuses[503]).toBeGreaterThan(0); // the API said 503 while the database was down
    expect(drive.statuses[500]).toBeUndefined(); // never a bare internal error
    expect(readyWhileDown.filter((s) => s === 503).length).toBeGreaterThan(0);
    expect(readyWhileDown.filter((s) => s === 200)).toEqual([]);
    expect(readiness.at(-1)?.status).toBe(200);
    expect(writes.lostAcknowledgedWrites).toBe(0);
    expect(writes.doubleExecutions).toBe(0);
    expect(writes.stuckKeys).toBe(0);
    expect(writes.ledgerCharges).toBe(writes.storedSubscriptions);
  },
);
