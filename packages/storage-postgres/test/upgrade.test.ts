import { randomUUID } from "node:crypto";
import { cp, mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { sampleProject } from "@kopek/testing";
import { afterAll, expect, it as vitestIt } from "vitest";
import { createPostgresStorage, migrate } from "../src/index.js";
import { openTestDatabase, testDatabaseSchema } from "./database.js";
import { insertInvoiceAs01 } from "./invoice-as-01.js";
import { testCipher } from "./test-cipher.js";

// A database at 0.1's schema (0001 only) with rows 0.1 wrote, upgraded by 0002_lifecycle and on to
// 0011 while 0.1 processes still serve, then by the release migration 0012 (keys by project).
const db = await openTestDatabase();
// From an empty database only: the partitioned and Citus modes start from a schema already migrated.
const it = vitestIt.runIf(testDatabaseSchema() === "plain");
const scratch = await mkdtemp(join(tmpdir(), "kopek-upgrade-"));
afterAll(async () => {
  await db.close();
  await rm(scratch, { recursive: true, force: true });
});

const cipher = testCipher();
const storage = createPostgresStorage({ pool: db.pool, encryption: cipher });

/** A subscription and an invoice inserted with exactly the columns 0.1's completions name. */
async function insertAs01(projectId: string, nextChargeAt: string) {
  const subscriptionId = randomUUID();
  await db.pool.query(
    `INSERT INTO subscriptions
       (id, project_id, status, amount, currency, period_unit, period_count, method,
        provider_method_ref_ciphertext, provider_method_ref_key_id, method_mask, description, metadata,
        started_at, next_charge_at, last_charged_at, cycles_started, created_at)
     VALUES ($1, $2, 'active', 149900, 'RUB', 'month', 1, 'card', $3, $4, '2200 70** **** 1234', 'Pro',
             '{"plan":"pro"}', '2026-01-31T09:30:00.123Z', $5, '2026-01-31T09:30:00.123Z', 1,
             '2026-01-31T09:30:00.123Z')`,
    [subscriptionId, projectId, cipher.encrypt("pm_old", subscriptionId), cipher.currentKeyId, nextChargeAt],
  );
  const invoiceId = randomUUID();
  await insertInvoiceAs01(db.pool, invoiceId, projectId);
  return { subscriptionId, invoiceId };
}

it("upgrades a 0.1 database: backfills the new columns, and 0.1 inserts keep working during a rollout", async () => {
  const only0001 = join(scratch, "0.1");
  await cp(new URL("../migrations/", import.meta.url), only0001, { recursive: true });
  const later = (await readdir(only0001)).filter(
    (name) => name.endsWith(".sql") && name !== "0001_initial.sql",
  );
  for (const name of later) await rm(join(only0001, name));
  expect(await migrate(db.pool, { directory: pathToFileURL(`${only0001}/`) })).toEqual({ applied: [1] });

  const project = sampleProject();
  // As 0.1 saved it: today's saveProject names columns 0.1's schema does not have.
  await db.pool.query("INSERT INTO projects (id, name, provider, created_at) VALUES ($1, $2, $3, $4)", [
    project.id,
    project.name,
    JSON.stringify(project.provider),
    project.createdAt,
  ]);
  const before = await insertAs01(project.id, "2026-02-28T09:30:00.123Z");

  // Up to 0011: 0012 is a release migration, after which processes of 0.1 must be stopped.
  const upTo0011 = join(scratch, "0011");
  await cp(new URL("../migrations/", import.meta.url), upTo0011, { recursive: true });
  for (const name of await readdir(upTo0011)) if (name >= "0012") await rm(join(upTo0011, name));
  const rollout = later.filter((name) => name < "0012");
  expect(await migrate(db.pool, { directory: pathToFileURL(`${upTo0011}/`) })).toEqual({
    applied: rollout.map((_, i) => i + 2),
  });
  // An old process still serving inserts without the new columns.
  const during = await insertAs01(project.id, "2026-03-31T09:30:00.123Z");

  expect(await migrate(db.pool)).toEqual({
    applied: later.slice(rollout.length).map((_, i) => i + 2 + rollout.length),
  });
  // Today's storage reads the rows of both: backfilled, and next_attempt_at following next_charge_at.
  expect((await storage.findProject(project.id))._unsafeUnwrap()).toEqual(project);
  const subscription = (await storage.findSubscription(project.id, before.subscriptionId))._unsafeUnwrap();
  expect(subscription).toMatchObject({
    providerMethodRef: "pm_old",
    nextChargeAt: new Date("2026-02-28T09:30:00.123Z"),
    nextAttemptAt: new Date("2026-02-28T09:30:00.123Z"),
    nextCycle: 1,
    declines: 0,
    firstDeclinedAt: null,
    canceledAt: null,
    cancelReason: null,
    version: 1,
  });
  // Rows written before 0014 keep their schedule: anchored where they started, no trial.
  expect(subscription?.anchorAt).toEqual(subscription?.startedAt);
  expect([subscription?.anchorPeriod, subscription?.trialEnd, subscription?.cancelAt]).toEqual([
    0,
    null,
    null,
  ]);
  expect((await storage.findInvoice(project.id, before.invoiceId))._unsafeUnwrap()).toMatchObject({
    canceledAt: null,
    version: 1,
  });

  expect((await storage.findSubscription(project.id, during.subscriptionId))._unsafeUnwrap()).toMatchObject({
    nextAttemptAt: new Date("2026-03-31T09:30:00.123Z"),
    version: 1,
  });

  const claimed = (
    await storage.claimDueSubscriptions({
      now: new Date("2026-04-01T00:00:00.000Z"),
      limit: 10,
      leaseToken: randomUUID(),
      leaseExpiresAt: new Date("2026-04-01T00:01:00.000Z"),
    })
  )._unsafeUnwrap();
  expect(claimed.map((s) => [s.id, s.version])).toEqual([
    [before.subscriptionId, 2],
    [during.subscriptionId, 2],
  ]);
});
