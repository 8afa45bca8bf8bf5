import { randomUUID } from "node:crypto";
import type {
  CreateOnceOutcome,
  InspectableStorage,
  NewIdempotencyRecord,
  OneStepWrite,
  StorageError,
} from "@kopek/core";
import { sampleInvoice, sampleProject } from "@kopek/testing";
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

/** The pool, recording how many writes each `createOnce` statement it runs carries. */
function countingPool() {
  const sizes: number[] = [];
  /** The project each statement names, and the projects its writes belong to. */
  const projects: { named: unknown; writes: Set<unknown> }[] = [];
  const pool: PostgresPool = {
    query: (config: QueryConfig | string) => {
      if (typeof config !== "string" && config.name === "kopek_create_once") {
        const items = JSON.parse(String(config.values?.[0])) as { r_key: string }[];
        sizes.push(items.length);
        projects.push({
          named: config.values?.[1],
          writes: new Set(items.map((i) => i.r_key.split(" ")[0])),
        });
      }
      return db.pool.query(config);
    },
    connect: () => db.pool.connect(),
  };
  return { pool, sizes, projects, batches: () => sizes.length };
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
  return {
    storage,
    projectId: project.id,
    batches: counting.batches,
    sizes: counting.sizes,
    projects: counting.projects,
  };
}

async function settled<T>(result: ResultAsync<T, StorageError>): Promise<T> {
  return (await result)._unsafeUnwrap();
}

/** A create of a new invoice under `key` (a fresh one by default): its record and its write. */
function invoiceCreate(projectId: string, overrides: Partial<NewIdempotencyRecord> = {}) {
  const now = Date.now();
  const recordId = overrides.recordId ?? randomUUID();
  const response = {
    status: 201,
    headers: { location: `/v1/invoices/${recordId}` },
    body: `{"id":"${recordId}"}`,
  };
  const write: OneStepWrite = {
    response,
    resource: { kind: "invoice", invoice: sampleInvoice(projectId, { id: recordId }) },
    events: [],
    payments: [],
  };
  const record: NewIdempotencyRecord = {
    projectId,
    // The project leads the key, so a test can tell from a statement's writes which projects it holds.
    key: `${projectId} ${randomUUID()}`,
    fingerprint: "f".repeat(64),
    recordId,
    now: new Date(now),
    expiresAt: new Date(now + DAY_MS),
    apiKeyId: null,
    ...overrides,
  };
  return { record, write };
}

type Create = ReturnType<typeof invoiceCreate>;

// Started together (no await in between): they go in one batch (a second create of a key in the next).
function together(storage: InspectableStorage, creates: readonly Create[]) {
  return Promise.all(creates.map(({ record, write }) => storage.createOnce(record, write)));
}

const store = (storage: InspectableStorage, { record, write }: Create) => storage.createOnce(record, write);

const outcomes = (results: readonly Awaited<ReturnType<InspectableStorage["createOnce"]>>[]) =>
  results.map((result) => (result.isOk() ? result.value.kind : result.error.code));

describe(`createOnce batches new invoices on ${db.backend}`, () => {
  it("puts creates of several projects in statements of one project each, the project named", async () => {
    const { storage, projectId, batches, projects } = await setUp();
    const others = [sampleProject(), sampleProject()];
    for (const other of others) await settled(storage.saveProject(other));
    const ids = [projectId, ...others.map((p) => p.id)];
    const made = Array.from({ length: 30 }, (_, i) => invoiceCreate(ids[i % 3] ?? projectId));
    expect(outcomes(await together(storage, made))).toEqual(Array(30).fill("created"));
    expect(batches()).toBe(3);
    expect(projects.map((p) => [...p.writes])).toEqual(ids.map((id) => [id]));
    expect(projects.map((p) => p.named)).toEqual(ids);
    for (const { record, write } of made)
      expect(await settled(storage.findInvoice(record.projectId, record.recordId))).toEqual(
        write.resource?.invoice,
      );
  });

  it("writes many concurrent invoices in a few statements, each stored with its own record", async () => {
    const { storage, projectId, batches } = await setUp();
    const made = Array.from({ length: 40 }, () => invoiceCreate(projectId));
    const results = await together(storage, made);
    expect(outcomes(results)).toEqual(Array(40).fill("created"));
    // Made in the same turn of the event loop, they go together.
    expect(batches()).toBe(1);
    for (const { record, write } of made) {
      const found = await settled(storage.findInvoice(projectId, record.recordId));
      expect(found).toEqual(write.resource?.invoice);
      const replay = await settled(store(storage, invoiceCreate(projectId, { key: record.key })));
      expect(replay).toEqual({
        kind: "existing",
        record: {
          state: "completed",
          fingerprint: record.fingerprint,
          response: write.response,
        },
      });
    }
  });

  it("answers each create in a batch as it would alone: new, replayed, in progress, expired, revoked, id taken", async () => {
    const { storage, projectId, sizes } = await setUp();
    const done = invoiceCreate(projectId);
    await settled(store(storage, done));
    const claimed = invoiceCreate(projectId);
    const claim = {
      ...claimed.record,
      leaseToken: randomUUID(),
      leaseExpiresAt: new Date(Date.now() + 30_000),
    };
    await settled(storage.claimIdempotencyKey(claim));
    const past = Date.now() - 2 * DAY_MS;
    const expired = invoiceCreate(projectId, { now: new Date(past), expiresAt: new Date(past + DAY_MS) });
    await settled(store(storage, expired));
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
    const replay = invoiceCreate(projectId, { key: done.record.key });
    const inProgress = invoiceCreate(projectId, { key: claimed.record.key });
    const reused = invoiceCreate(projectId, { key: expired.record.key, fingerprint: "e".repeat(64) });
    const revoked = invoiceCreate(projectId, { apiKeyId: key.id });
    const idTaken = invoiceCreate(projectId, { recordId: done.record.recordId });
    const refusal = invoiceCreate(projectId);
    const refused: Create = { ...refusal, write: { ...refusal.write, resource: null } };
    const results = await together(storage, [
      blocker,
      fresh,
      replay,
      inProgress,
      reused,
      revoked,
      idTaken,
      refused,
    ]);
    expect(outcomes(results)).toEqual([
      "created",
      "created",
      "existing",
      "existing",
      "created",
      "key_revoked",
      "conflict",
      "created",
    ]);
    // Two set-up creates, then one statement decided all eight: none needed a statement of its own.
    expect(sizes).toEqual([1, 1, 8]);
    const answer = (i: number) => (results[i] as { value: CreateOnceOutcome }).value;
    expect(answer(2)).toEqual({
      kind: "existing",
      record: {
        state: "completed",
        fingerprint: done.record.fingerprint,
        response: done.write.response,
      },
    });
    expect(answer(3)).toMatchObject({ kind: "existing", record: { state: "in_progress" } });
    expect(await settled(storage.findInvoice(projectId, reused.record.recordId))).not.toBeNull();
    for (const { record } of [replay, inProgress, revoked, refused])
      expect(await settled(storage.findInvoice(projectId, record.recordId))).toBeNull();
    // The refusal is stored as its key's answer, without an invoice.
    expect(await settled(storage.findIdempotencyRecord(refused.record))).toEqual({
      kind: "existing",
      record: {
        state: "completed",
        fingerprint: refused.record.fingerprint,
        response: refused.write.response,
      },
    });
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
        id: bad.record.recordId,
        amount: { amount: "100", currency: "rub" },
      });
      const refused: Create = { ...bad, write: { ...bad.write, resource: { kind: "invoice", invoice } } };
      const results = await together(storage, [invoiceCreate(projectId), ...good, refused]);
      expect(outcomes(results)).toEqual([...Array(6).fill("created"), "storage_failed"]);
      expect(await settled(storage.findInvoice(projectId, bad.record.recordId))).toBeNull();
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
        waves.flatMap((wave) => wave.map((key) => invoiceCreate(projectId, { key }))),
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

  it("writes each invoice in a statement of its own when batching is off", async () => {
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
      Array.from({ length: 5 }, () => invoiceCreate(project.id)),
    );
    expect(outcomes(results)).toEqual(Array(5).fill("created"));
    expect(counting.sizes).toEqual([1, 1, 1, 1, 1]);
  });
});
