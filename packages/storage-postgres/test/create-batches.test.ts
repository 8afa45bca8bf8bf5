import { randomUUID } from "node:crypto";
import type {
  CreateOnceOutcome,
  IdempotentCreate,
  IdempotentWrite,
  InspectableStorage,
  StorageError,
} from "@kopek/core";
import { sampleInvoice, sampleProject } from "@kopek/core/testing";
import type { ResultAsync } from "neverthrow";
import type { QueryConfig } from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { createPostgresStorage, migrate, type PostgresPool } from "../src/index.js";
import { openTestDatabase } from "./database.js";
import { testCipher } from "./test-cipher.js";

const db = await openTestDatabase();
afterAll(() => db.close());
await migrate(db.pool);

const DAY_MS = 24 * 60 * 60 * 1000;

/** The pool, counting the batch statements it runs, and the single-invoice ones. */
function countingPool(): { pool: PostgresPool; batches: () => number; singles: () => number } {
  let batches = 0;
  let singles = 0;
  const pool: PostgresPool = {
    query: (config: QueryConfig | string) => {
      const name = typeof config === "string" ? undefined : config.name;
      if (name === "kopek_create_once_invoices") batches += 1;
      if (name === "kopek_create_once_invoice") singles += 1;
      return db.pool.query(config);
    },
    connect: () => db.pool.connect(),
  };
  return { pool, batches: () => batches, singles: () => singles };
}

async function setUp(maxInFlight = 1) {
  const counting = countingPool();
  const storage = createPostgresStorage({
    pool: counting.pool,
    encryption: testCipher(),
    createBatches: { maxInFlight },
  });
  const project = sampleProject();
  await settled(storage.saveProject(project));
  return { storage, projectId: project.id, batches: counting.batches, singles: counting.singles };
}

async function settled<T>(result: ResultAsync<T, StorageError>): Promise<T> {
  return (await result)._unsafeUnwrap();
}

/** A create of a new invoice under `key` (a fresh one by default). */
function invoiceCreate(projectId: string, overrides: Partial<IdempotentCreate> = {}) {
  const now = Date.now();
  const recordId = overrides.recordId ?? randomUUID();
  const response = {
    status: 201,
    headers: { location: `/v1/invoices/${recordId}` },
    body: `{"id":"${recordId}"}`,
  };
  const write: IdempotentWrite = {
    response,
    resource: { kind: "invoice", invoice: sampleInvoice(projectId, { id: recordId }) },
    events: [],
  };
  const create: IdempotentCreate = {
    projectId,
    key: `batch-${randomUUID()}`,
    fingerprint: "f".repeat(64),
    recordId,
    now: new Date(now),
    expiresAt: new Date(now + DAY_MS),
    apiKeyId: null,
    build: () => write,
    ...overrides,
  };
  return { create, write };
}

// Started together (no await in between): they go in one batch (a second create of a key in the next).
function together(storage: InspectableStorage, creates: readonly IdempotentCreate[]) {
  return Promise.all(creates.map((create) => storage.createOnce(create)));
}

const outcomes = (results: readonly Awaited<ReturnType<InspectableStorage["createOnce"]>>[]) =>
  results.map((result) => (result.isOk() ? result.value.kind : result.error.code));

describe(`createOnce batches new invoices on ${db.backend}`, () => {
  it("writes many concurrent invoices in a few statements, each stored with its own record", async () => {
    const { storage, projectId, batches } = await setUp();
    const made = Array.from({ length: 40 }, () => invoiceCreate(projectId));
    const results = await together(
      storage,
      made.map(({ create }) => create),
    );
    expect(outcomes(results)).toEqual(Array(40).fill("created"));
    // Made in the same turn of the event loop, they go together.
    expect(batches()).toBe(1);
    for (const { create, write } of made) {
      const found = await settled(storage.findInvoice(projectId, create.recordId));
      expect(found).toEqual(write.resource?.kind === "invoice" ? write.resource.invoice : null);
      const replay = await settled(storage.createOnce(invoiceCreate(projectId, { key: create.key }).create));
      expect(replay).toEqual({
        kind: "existing",
        record: { state: "completed", fingerprint: create.fingerprint, response: write.response },
      });
    }
  });

  it("answers each create in a batch as it would alone: new, replayed, in progress, expired, revoked, id taken", async () => {
    const { storage, projectId, batches, singles } = await setUp();
    const done = invoiceCreate(projectId);
    await settled(storage.createOnce(done.create));
    const claimed = invoiceCreate(projectId);
    const claim = {
      ...claimed.create,
      leaseToken: randomUUID(),
      leaseExpiresAt: new Date(Date.now() + 30_000),
    };
    await settled(storage.claimIdempotencyKey(claim));
    const past = Date.now() - 2 * DAY_MS;
    const expired = invoiceCreate(projectId, { now: new Date(past), expiresAt: new Date(past + DAY_MS) });
    await settled(storage.createOnce(expired.create));
    const key = {
      id: randomUUID(),
      projectId,
      sha256: randomUUID().replaceAll("-", "").repeat(2),
      createdAt: new Date(),
      revokedAt: new Date(),
    };
    await settled(storage.addApiKey(key));

    const blocker = invoiceCreate(projectId);
    const fresh = invoiceCreate(projectId);
    const replay = invoiceCreate(projectId, { key: done.create.key });
    const inProgress = invoiceCreate(projectId, { key: claimed.create.key });
    const reused = invoiceCreate(projectId, { key: expired.create.key, fingerprint: "e".repeat(64) });
    const revoked = invoiceCreate(projectId, { apiKeyId: key.id });
    const idTaken = invoiceCreate(projectId, { recordId: done.create.recordId });
    const results = await together(
      storage,
      [blocker, fresh, replay, inProgress, reused, revoked, idTaken].map(({ create }) => create),
    );
    expect(outcomes(results)).toEqual([
      "created",
      "created",
      "existing",
      "existing",
      "created",
      "key_revoked",
      "conflict",
    ]);
    // Two set-up creates, then one statement decided all seven: none needed a statement of its own.
    expect([batches(), singles()]).toEqual([3, 0]);
    const answer = (i: number) => (results[i] as { value: CreateOnceOutcome }).value;
    expect(answer(2)).toEqual({
      kind: "existing",
      record: { state: "completed", fingerprint: done.create.fingerprint, response: done.write.response },
    });
    expect(answer(3)).toMatchObject({ kind: "existing", record: { state: "in_progress" } });
    expect(await settled(storage.findInvoice(projectId, reused.create.recordId))).not.toBeNull();
    for (const { create } of [replay, inProgress, revoked])
      expect(await settled(storage.findInvoice(projectId, create.recordId))).toBeNull();
  });

  // A statement error ends PGlite's node-postgres connection, so this runs on a real server only.
  it.runIf(db.isRealServer)(
    "does not let one invoice the database refuses fail the others in its batch (real server only)",
    async () => {
      const { storage, projectId } = await setUp();
      const good = Array.from({ length: 5 }, () => invoiceCreate(projectId));
      const bad = invoiceCreate(projectId);
      // Lower case breaks the currency CHECK constraint: the whole statement fails.
      const invoice = sampleInvoice(projectId, {
        id: bad.create.recordId,
        amount: { amount: "100", currency: "rub" },
      });
      const refused: IdempotentWrite = { ...bad.write, resource: { kind: "invoice", invoice } };
      const creates = [...good.map(({ create }) => create), { ...bad.create, build: () => refused }];
      const results = await together(storage, [invoiceCreate(projectId).create, ...creates]);
      expect(outcomes(results)).toEqual([...Array(6).fill("created"), "storage_failed"]);
      expect(await settled(storage.findInvoice(projectId, bad.create.recordId))).toBeNull();
    },
  );

  it.runIf(db.isRealServer)(
    "runs batches that share keys side by side, each key created once (real server only)",
    async () => {
      const { storage, projectId } = await setUp(4);
      const keys = Array.from({ length: 30 }, () => `shared-${randomUUID()}`);
      // Four waves of the same keys, in different orders, so batches in flight overlap.
      const waves = [keys, [...keys].reverse(), [...keys].sort(), [...keys].sort().reverse()];
      const results = await together(
        storage,
        waves.flatMap((wave) => wave.map((key) => invoiceCreate(projectId, { key }).create)),
      );
      const kinds = outcomes(results);
      expect(kinds.filter((kind) => kind === "created")).toHaveLength(keys.length);
      expect(kinds.filter((kind) => kind === "existing")).toHaveLength(keys.length * 3);
      const rows = (
        await db.pool.query("SELECT count(*)::int AS n FROM invoices WHERE project_id = $1", [projectId])
      ).rows[0] as { n: number };
      expect(rows.n).toBe(keys.length);
    },
  );

  it("writes each invoice alone when batching is off", async () => {
    const counting = countingPool();
    const storage = createPostgresStorage({
      pool: counting.pool,
      encryption: testCipher(),
      createBatches: false,
    });
    const project = sampleProject();
    await settled(storage.saveProject(project));
    const results = await together(
      storage,
      Array.from({ length: 5 }, () => invoiceCreate(project.id).create),
    );
    expect(outcomes(results)).toEqual(Array(5).fill("created"));
    expect([counting.batches(), counting.singles()]).toEqual([0, 5]);
  });
});
