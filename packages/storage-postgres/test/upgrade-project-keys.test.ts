import { randomUUID } from "node:crypto";
import { cp, mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { sampleProject } from "@kopek/testing";
import { afterAll, expect, it as vitestIt } from "vitest";
import { createPostgresStorage, migrate } from "../src/index.js";
import { openTestDatabase, testDatabaseSchema } from "./database.js";
import { testCipher } from "./test-cipher.js";

// 0012 (keys by project): a pending delivery written before it gets its event's project, and is
// still claimed and recorded afterwards; ids stay unique per project only.
const db = await openTestDatabase();
// From an empty database only: the partitioned and Citus modes start from a schema already migrated.
const it = vitestIt.runIf(testDatabaseSchema() === "plain");
const scratch = await mkdtemp(join(tmpdir(), "kopek-project-keys-"));
afterAll(async () => {
  await db.close();
  await rm(scratch, { recursive: true, force: true });
});

it("0012 gives a pending delivery its event's project, and the delivery is still claimed and recorded", async () => {
  const upTo0011 = join(scratch, "0011");
  await cp(new URL("../migrations/", import.meta.url), upTo0011, { recursive: true });
  for (const name of await readdir(upTo0011)) if (name >= "0012") await rm(join(upTo0011, name));
  await migrate(db.pool, { directory: pathToFileURL(`${upTo0011}/`) });

  const cipher = testCipher();
  const storage = createPostgresStorage({ pool: db.pool, encryption: cipher });
  const projects = [sampleProject(), sampleProject()];
  const at = new Date("2026-03-01T10:00:00.000Z");
  for (const project of projects)
    await db.pool.query("INSERT INTO projects (id, name, provider, created_at) VALUES ($1, $2, $3, $4)", [
      project.id,
      project.name,
      JSON.stringify(project.provider),
      project.createdAt,
    ]);
  const written = [];
  for (const project of projects) {
    const endpointId = randomUUID();
    const eventId = randomUUID();
    await db.pool.query(
      `INSERT INTO webhook_endpoints (id, project_id, url, secret_ciphertext, secret_key_id, enabled, created_at)
       VALUES ($1, $2, 'https://shop.example/hook', $3, $4, true, $5)`,
      [endpointId, project.id, cipher.encrypt("whsec_old", endpointId), cipher.currentKeyId, at],
    );
    await db.pool.query(
      `INSERT INTO events (id, project_id, type, created_at, data) VALUES ($1, $2, 'invoice.paid', $3, '{}')`,
      [eventId, project.id, at],
    );
    await db.pool.query(
      `INSERT INTO webhook_deliveries (event_id, endpoint_id, state, next_attempt_at) VALUES ($1, $2, 'pending', $3)`,
      [eventId, endpointId, at],
    );
    written.push({ projectId: project.id, eventId, endpointId });
  }

  // 0012, then the migrations after it.
  expect((await migrate(db.pool)).applied[0]).toBe(12);
  const { rows } = await db.pool.query(
    "SELECT project_id, event_id FROM webhook_deliveries ORDER BY project_id",
  );
  expect(rows).toEqual(
    written
      .map((w) => ({ project_id: w.projectId, event_id: w.eventId }))
      .sort((a, b) => a.project_id.localeCompare(b.project_id)),
  );

  const leaseToken = randomUUID();
  const claimed = (
    await storage.claimDueDeliveries({
      now: new Date(at.getTime() + 1000),
      limit: 10,
      leaseToken,
      leaseExpiresAt: new Date(at.getTime() + 60_000),
    })
  )._unsafeUnwrap();
  expect(claimed.map((d) => d.event.id).sort()).toEqual(written.map((w) => w.eventId).sort());
  expect(claimed.map((d) => d.endpoint.secret)).toEqual(["whsec_old", "whsec_old"]);
  // Written before 0021: every event type, no previous secret, no description.
  expect(claimed.map(({ endpoint: e }) => [e.eventTypes, e.previousSecret, e.description])).toEqual([
    [null, null, null],
    [null, null, null],
  ]);
  const delivered = (projectId: string, eventId: string, endpointId: string) => ({
    id: randomUUID(),
    projectId,
    eventId,
    endpointId,
    leaseToken,
    at,
    outcome: "delivered" as const,
    nextAttemptAt: null,
    status: 200,
    error: null,
    durationMs: 12,
  });
  // An attempt named with another project records nothing, though its lease holds in its own.
  const [first] = written;
  const crossed = delivered(projects[1]?.id ?? "", first?.eventId ?? "", first?.endpointId ?? "");
  expect((await storage.recordDeliveryAttempt(crossed))._unsafeUnwrapErr().code).toBe("lease_lost");
  for (const d of claimed)
    (
      await storage.recordDeliveryAttempt(delivered(d.endpoint.projectId, d.event.id, d.endpoint.id))
    )._unsafeUnwrap();
  const states = await db.pool.query("SELECT DISTINCT state FROM webhook_deliveries");
  expect(states.rows).toEqual([{ state: "delivered" }]);
  const logged = await db.pool.query("SELECT outcome, http_status FROM webhook_delivery_attempts");
  expect(logged.rows).toEqual([
    { outcome: "delivered", http_status: 200 },
    { outcome: "delivered", http_status: 200 },
  ]);
});
