import { afterAll, expect, test } from "vitest";
import { driveWithCrashes } from "./crash-drive.js";
import { openCrashProof } from "./crash-proof-fixture.js";
import { makeRequests } from "./create-driver.js";
import { crashProofServer } from "./sandbox-project.js";
import { reportFigures, verifyWrites } from "./verify-writes.js";

// Crash test (docs/reliability.md): PostgreSQL, the sandbox provider in its own process, a server
// SIGKILLed at random moments under load and restarted, a client retrying every unanswered request.
const LONG = process.env.KOPEK_PROOF_LONG === "1";
const REQUESTS = LONG ? 3000 : 500;
const CRASHES = LONG ? 15 : 5;
const CONCURRENCY = 16;

const { db, scratch, ledgerFile, provider, onServer, close } = await openCrashProof("crash");
afterAll(close);

test.runIf(db.isRealServer)(
  `crash test: ${REQUESTS} creates, ${CRASHES} SIGKILLs, every acknowledged write exactly once`,
  { timeout: LONG ? 900_000 : 120_000 },
  async () => {
    const { apiKey, env } = await crashProofServer(scratch, "crash", provider.url, db.url ?? "");
    const started = Date.now();
    const drive = await driveWithCrashes({
      env,
      apiKey,
      requests: makeRequests(REQUESTS),
      crashes: CRASHES,
      concurrency: CONCURRENCY,
      onServer,
    });
    const { crashes } = drive;

    const writes = await verifyWrites(db.pool, drive.acknowledged, ledgerFile);
    const figures = {
      requests: drive.requests,
      attempts: drive.attempts,
      unansweredAttempts: drive.unanswered,
      crashesInjected: crashes,
      statuses: drive.statuses,
      replayed200: drive.acknowledged.filter((ack) => ack.status === 200).length,
      ...writes,
      durationMs: Date.now() - started,
    };
    reportFigures(LONG ? "crash-long" : "crash", figures);
    expect(crashes).toBe(CRASHES);
    expect(drive.acknowledged).toHaveLength(REQUESTS);
    expect(writes.lostAcknowledgedWrites).toBe(0);
    expect(writes.doubleExecutions).toBe(0);
    expect(writes.uncharged).toBe(0);
    expect(writes.stuckKeys).toBe(0);
    expect(writes.ledgerCharges).toBe(writes.storedSubscriptions);
  },
);
