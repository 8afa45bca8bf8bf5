import { randomUUID } from "node:crypto";
import type { IdempotencyClaim, InspectableStorage, Subscription } from "@kopek/core";
import { sampleProject, sampleSubscription } from "@kopek/testing";
import type { ResultAsync } from "neverthrow";
import { afterAll, describe, expect, it } from "vitest";
import { createPostgresStorage, migrate } from "../src/index.js";
import { COMPLETE_WITH_SUBSCRIPTION } from "../src/resource-sql.js";
import { subscriptionValues } from "../src/rows.js";
import { openTestDatabase } from "./database.js";
import { testCipher } from "./test-cipher.js";

const db = await openTestDatabase();
afterAll(() => db.close());
await migrate(db.pool);

const cipher = testCipher();
const LEASE_MS = 30_000;
const DAY_MS = 24 * 60 * 60 * 1000;

async function unwrap<T, E>(result: ResultAsync<T, E>): Promise<T> {
  return (await result)._unsafeUnwrap();
}

function claimAt(
  projectId: string,
  now: number,
  overrides: Partial<IdempotencyClaim> = {},
): IdempotencyClaim {
  return {
    projectId,
    key: `race-${randomUUID()}`,
    fingerprint: "a".repeat(64),
    recordId: randomUUID(),
    leaseToken: randomUUID(),
    now: new Date(now),
    leaseExpiresAt: new Date(now + LEASE_MS),
    expiresAt: new Date(now + DAY_MS),
    apiKeyId: null,
    ...overrides,
  };
}

function retryOf(claim: IdempotencyClaim, now: number): IdempotencyClaim {
  return claimAt(claim.projectId, now, { key: claim.key, fingerprint: claim.fingerprint });
}

async function newProject(storage: InspectableStorage): Promise<string> {
  const project = sampleProject();
  await unwrap(storage.saveProject(project));
  return project.id;
}

describe(`idempotency on ${db.backend}`, () => {
  it.runIf(db.isRealServer)(
    "lets exactly one of 50 claims from 4 separate pools win (real server only)",
    async () => {
      const storages = Array.from({ length: 4 }, () =>
        createPostgresStorage({ pool: db.newPool({ max: 13 }), encryption: cipher }),
      );
      const projectId = await newProject(storages[0] as InspectableStorage);
      for (let round = 0; round < 5; round++) {
        const first = claimAt(projectId, Date.now());
        const outcomes = await Promise.all(
          Array.from({ length: 50 }, (_, i) =>
            unwrap(
              (storages[i % 4] as InspectableStorage).claimIdempotencyKey(
                retryOf(first, first.now.getTime()),
              ),
            ),
          ),
        );
        expect(outcomes.filter((o) => o.kind === "claimed")).toHaveLength(1);
        expect(outcomes.filter((o) => o.kind === "existing")).toHaveLength(49);
      }
    },
  );

  it.runIf(db.isRealServer)(
    "a completion killed before COMMIT leaves no resource and the key retriable (real server only: pg_terminate_backend)",
    async () => {
      const storage = createPostgresStorage({ pool: db.pool, encryption: cipher });
      const projectId = await newProject(storage);
      const claim = claimAt(projectId, Date.now());
      await unwrap(storage.claimIdempotencyKey(claim));
      const subscription = sampleSubscription(projectId);

      // The adapter's own completion statement, but inside a transaction we never commit.
      const victim = await db.newPool({ max: 1 }).connect();
      victim.on("error", () => {});
      const pid = (await victim.query<{ pid: number }>("SELECT pg_backend_pid() AS pid")).rows[0]?.pid;
      await victim.query("BEGIN");
      const values = [claim.projectId, claim.key, claim.leaseToken, 201, "{}", "{}"];
      const written = await victim.query({
        text: COMPLETE_WITH_SUBSCRIPTION,
        values: [...values, ...subscriptionValues(subscription, cipher)],
      });
      expect(written.rows[0]).toEqual({ leased: 1, completed: 1 });
      // $1::int: Citus adds a pg_terminate_backend(bigint, …), so an untyped parameter is ambiguous there.
      const killed = await db.pool.query("SELECT pg_terminate_backend($1::int) AS killed", [pid]);
      expect(killed.rows[0]).toEqual({ killed: true });
      await expect(victim.query("COMMIT")).rejects.toThrow();
      victim.release(true);

      expect(await unwrap(storage.findSubscription(projectId, subscription.id))).toBeNull();
      const early = await unwrap(storage.claimIdempotencyKey(retryOf(claim, claim.now.getTime() + 1000)));
      expect(early).toMatchObject({ kind: "existing", record: { state: "in_progress" } });

      const retry = retryOf(claim, claim.leaseExpiresAt.getTime());
      expect(await unwrap(storage.claimIdempotencyKey(retry))).toEqual({
        kind: "claimed",
        recordId: claim.recordId,
        takenOver: true,
      });
      const response = { status: 201, headers: {}, body: "{}" };
      await unwrap(
        storage.completeIdempotencyKey({
          projectId,
          key: claim.key,
          leaseToken: retry.leaseToken,
          response,
          resource: { kind: "subscription", subscription },
          now: retry.now,
          events: [],
          payments: [],
        }),
      );
      expect(await unwrap(storage.findSubscription(projectId, subscription.id))).toEqual(subscription);
    },
  );

  it("a completion rolled back before COMMIT leaves no resource and no completed record", async () => {
    const storage = createPostgresStorage({ pool: db.pool, encryption: cipher });
    const projectId = await newProject(storage);
    const claim = claimAt(projectId, Date.now());
    await unwrap(storage.claimIdempotencyKey(claim));
    const subscription = sampleSubscription(projectId);
    const client = await db.pool.connect();
    try {
      await client.query("BEGIN");
      const values = [claim.projectId, claim.key, claim.leaseToken, 201, "{}", "{}"];
      await client.query({
        text: COMPLETE_WITH_SUBSCRIPTION,
        values: [...values, ...subscriptionValues(subscription, cipher)],
      });
      await client.query("ROLLBACK");
    } finally {
      client.release();
    }
    expect(await unwrap(storage.findSubscription(projectId, subscription.id))).toBeNull();
    const probe = await unwrap(storage.claimIdempotencyKey(retryOf(claim, claim.now.getTime())));
    expect(probe).toMatchObject({ kind: "existing", record: { state: "in_progress" } });
  });

  it("a completion whose lease was taken over fails with lease_lost, even when its resource would conflict too", async () => {
    const storage = createPostgresStorage({ pool: db.pool, encryption: cipher });
    const projectId = await newProject(storage);
    const response = { status: 200, headers: {}, body: "{}" };
    const complete = (claim: IdempotencyClaim, subscription: Subscription) =>
      storage.completeIdempotencyKey({
        projectId,
        key: claim.key,
        leaseToken: claim.leaseToken,
        response,
        resource: { kind: "subscription", subscription },
        now: claim.now,
        events: [],
        payments: [],
      });
    const created = claimAt(projectId, Date.now());
    await unwrap(storage.claimIdempotencyKey(created));
    const subscription = sampleSubscription(projectId);
    await unwrap(complete(created, subscription));

    const stale = claimAt(projectId, Date.now());
    await unwrap(storage.claimIdempotencyKey(stale));
    const takeover = retryOf(stale, stale.leaseExpiresAt.getTime());
    expect(await unwrap(storage.claimIdempotencyKey(takeover))).toMatchObject({ takenOver: true });
    // Version 1 again: the id exists (a conflict), but the lease is gone first.
    expect((await complete(stale, subscription))._unsafeUnwrapErr().code).toBe("lease_lost");
    const canceled = { ...subscription, status: "canceled" as const, version: 2 };
    const withDates = { ...canceled, canceledAt: new Date(), cancelReason: "requested" as const };
    expect((await complete(stale, withDates))._unsafeUnwrapErr().code).toBe("lease_lost");
    // The holder of the lease completes; nothing of the stale completion was stored.
    expect((await complete(takeover, subscription))._unsafeUnwrapErr().code).toBe("conflict");
    await unwrap(complete(takeover, withDates));
    expect(await unwrap(storage.findSubscription(projectId, subscription.id))).toEqual(withDates);
  });

  it("purge removes only expired records, in progress or completed, and leaves live keys alone", async () => {
    const storage = createPostgresStorage({ pool: db.pool, encryption: cipher });
    const projectId = await newProject(storage);
    // Far in the past, so no record of another test is expired at `purgeAt`.
    const base = Date.UTC(1980, 0, 1);
    const purgeAt = base + DAY_MS;
    const expiredDone = claimAt(projectId, base, { expiresAt: new Date(purgeAt) });
    const expiredPending = claimAt(projectId, base + 1, { expiresAt: new Date(purgeAt - 1) });
    const liveDone = claimAt(projectId, base + 2, { expiresAt: new Date(purgeAt + 1) });
    const livePending = claimAt(projectId, base + 3, { expiresAt: new Date(purgeAt + 1) });
    for (const claim of [expiredDone, expiredPending, liveDone, livePending]) {
      await unwrap(storage.claimIdempotencyKey(claim));
    }
    for (const claim of [expiredDone, liveDone]) {
      const response = { status: 201, headers: {}, body: "{}" };
      const { projectId: p, key, leaseToken, now } = claim;
      await unwrap(
        storage.completeIdempotencyKey({
          projectId: p,
          key,
          leaseToken,
          response,
          resource: null,
          now,
          events: [],
          payments: [],
        }),
      );
    }
    expect(await unwrap(storage.purgeExpiredIdempotencyKeys(new Date(purgeAt), 1))).toBe(1);
    expect(await unwrap(storage.purgeExpiredIdempotencyKeys(new Date(purgeAt), 10))).toBe(1);
    expect(await unwrap(storage.purgeExpiredIdempotencyKeys(new Date(purgeAt), 10))).toBe(0);
    expect(await unwrap(storage.purgeExpiredIdempotencyKeys(new Date(purgeAt), 0))).toBe(0);
    const keys = ((await storage.inspect()).idempotency_records ?? []).map((row) => row.key);
    expect(keys).not.toContain(expiredDone.key);
    expect(keys).not.toContain(expiredPending.key);
    expect(keys).toContain(liveDone.key);
    expect(keys).toContain(livePending.key);
  });
});
