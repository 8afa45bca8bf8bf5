import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { PGlite } from "@electric-sql/pglite";
import { createPgConfig } from "@electric-sql/pglite/node-postgres";
import pg from "pg";
import { migrate } from "../src/index.js";
import { prepareCitusDatabase } from "./citus-database.js";
import { partitionTenantTables } from "./partitioned-schema.js";

/**
 * A fresh, empty database for one test file: a new `kopek_test_<random>` database on a real
 * PostgreSQL when one answers (`TEST_DATABASE_URL`, else the local default), otherwise an in-memory
 * PGlite driven through the real `pg` Pool via PGlite's node-postgres connection, so the adapter's
 * exact SQL and prepared statements run unchanged. `TEST_DATABASE_URL=pglite` forces PGlite.
 *
 * `TEST_DATABASE_SCHEMA` (see `testDatabaseSchema`) picks the schema the database starts with:
 * - `plain` (the default): an empty database; the test migrates it.
 * - `partitioned`: migrated, then every tenant table HASH-partitioned by project_id
 *   (test/partitioned-schema.ts), on PostgreSQL or PGlite; the test's own `migrate` finds nothing to do.
 * - `citus`: TEST_DATABASE_URL names a Citus coordinator; the database is made on it and on every
 *   worker, migrated and distributed by project_id, and a statement that touches several shards fails
 *   (test/citus-database.ts). Dropped on every node at close.
 */
export type TestDatabaseSchema = "plain" | "partitioned" | "citus";

/** `TEST_DATABASE_SCHEMA`: plain unless set; anything else is an error, not a silent default. */
export function testDatabaseSchema(): TestDatabaseSchema {
  const value = process.env.TEST_DATABASE_SCHEMA ?? "plain";
  if (value === "plain" || value === "partitioned" || value === "citus") return value;
  throw new Error(`TEST_DATABASE_SCHEMA must be plain, partitioned or citus, not "${value}"`);
}

export interface TestDatabase {
  readonly backend: "postgres" | "pglite";
  /** Only a real server has several connections, other sessions and `pg_terminate_backend`. */
  readonly isRealServer: boolean;
  readonly pool: pg.Pool;
  /** The database's connection string, for other processes (real server only; null on PGlite). */
  readonly url: string | null;
  /** Another pool on the same database (real server only: PGlite has a single connection). */
  newPool(options?: pg.PoolConfig): pg.Pool;
  /**
   * A test's own check over the whole database (every project's rows): on Citus it runs with the
   * fan-out rule off for its transaction, as Kopek's deliberate cross-project scans do; elsewhere it
   * is `pool.query`. Kopek's statements never go through here.
   */
  queryAcrossProjects<R extends pg.QueryResultRow = pg.QueryResultRow>(
    text: string,
    values?: unknown[],
  ): Promise<pg.QueryResult<R>>;
  /** Ends every pool and drops the database. */
  close(): Promise<void>;
}

/** `queryAcrossProjects` on a Citus coordinator: one transaction, fan-out allowed in it alone. */
async function acrossShards<R extends pg.QueryResultRow>(pool: pg.Pool, text: string, values?: unknown[]) {
  const client = await pool.connect();
  try {
    await client.query("BEGIN");
    await client.query("SET LOCAL citus.multi_task_query_log_level = 'off'");
    const result = await client.query<R>(text, values);
    await client.query("COMMIT");
    return result;
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

const DEFAULT_URL = "postgres://postgres@127.0.0.1:5432/postgres";

export async function openTestDatabase(): Promise<TestDatabase> {
  const schema = testDatabaseSchema();
  const explicit = process.env.TEST_DATABASE_URL;
  if (schema === "citus" && (explicit === undefined || explicit === "pglite"))
    throw new Error("TEST_DATABASE_SCHEMA=citus needs TEST_DATABASE_URL: a Citus coordinator");
  const db = await openDatabase(explicit);
  if (schema === "partitioned") {
    await migrate(db.pool);
    const client = await db.pool.connect();
    try {
      await partitionTenantTables(client);
    } finally {
      client.release();
    }
  }
  return db;
}

async function openDatabase(explicit: string | undefined): Promise<TestDatabase> {
  if (explicit === "pglite") return openPglite("TEST_DATABASE_URL=pglite");
  const adminUrl = explicit ?? DEFAULT_URL;
  const admin = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 1500 });
  try {
    await admin.connect();
  } catch (error) {
    await admin.end().catch(() => {});
    // A server the caller named must be used; only the guessed default may fall back.
    if (explicit !== undefined) throw new Error(`TEST_DATABASE_URL is not reachable: ${String(error)}`);
    return openPglite("no PostgreSQL reachable");
  }
  return openOnServer(admin, adminUrl);
}

async function openOnServer(admin: pg.Client, adminUrl: string): Promise<TestDatabase> {
  const name = `kopek_test_${randomBytes(6).toString("hex")}`;
  await admin.query(`CREATE DATABASE ${name}`);
  const citus =
    testDatabaseSchema() === "citus"
      ? await prepareCitusDatabase(admin, adminUrl, name).catch(async (error) => {
          await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
          await admin.end();
          throw error;
        })
      : null;
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const pools: pg.Pool[] = [];
  const newPool = (options: pg.PoolConfig = {}) => {
    const pool = new pg.Pool({ connectionString: url.toString(), max: 20, ...options });
    // A terminated backend surfaces here on idle clients; the tests that cause it expect it.
    pool.on("error", () => {});
    pools.push(pool);
    return pool;
  };
  const pool = newPool();
  const where = citus === null ? "" : ` (Citus, ${citus.workers.length} workers)`;
  console.info(`storage-postgres tests: PostgreSQL at ${url.host}${where}, database ${name}`);
  return {
    backend: "postgres",
    isRealServer: true,
    pool,
    url: url.toString(),
    newPool,
    queryAcrossProjects: (text, values) =>
      citus === null ? pool.query(text, values) : acrossShards(pool, text, values),
    async close() {
      await Promise.all(pools.map((p) => p.end()));
      // On Citus the rows are on the workers, and a dump's whole-table reads fan out: no dump.
      if (citus === null) await dumpForSecretScan(url.toString(), name);
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await citus?.dropOnWorkers();
      await admin.end();
    },
  };
}

async function openPglite(reason: string): Promise<TestDatabase> {
  const pglite = await PGlite.create();
  // One connection, never closed while idle: the pool itself serializes every transaction.
  const pool = new pg.Pool({ ...createPgConfig(pglite), max: 1, idleTimeoutMillis: 0 });
  console.info(`storage-postgres tests: ${reason}, using embedded PGlite`);
  return {
    backend: "pglite",
    isRealServer: false,
    pool,
    url: null,
    newPool() {
      throw new Error("PGlite has a single connection: use the one pool");
    },
    queryAcrossProjects: (text, values) => pool.query(text, values),
    async close() {
      await pool.end();
      await pglite.close();
    },
  };
}

const DUMPS = join(fileURLToPath(new URL("../../..", import.meta.url)), ".tmp", "dumps");

/**
 * Leaves a `pg_dump` of the database in `.tmp/dumps/` for scripts/scan-secrets.mjs, which looks
 * through every test database for API keys, card numbers and plaintext method tokens after the whole
 * suite. Skipped when pg_dump is missing or refuses (older than the server): the scan says so.
 */
async function dumpForSecretScan(databaseUrl: string, name: string): Promise<void> {
  try {
    await mkdir(DUMPS, { recursive: true });
    await promisify(execFile)("pg_dump", ["--no-owner", "--file", join(DUMPS, `${name}.sql`), databaseUrl]);
  } catch {
    // No dump: the scan counts the databases it could read and reports the rest as not scanned.
  }
}
