import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { PGlite } from "@electric-sql/pglite";
import { createPgConfig } from "@electric-sql/pglite/node-postgres";
import pg from "pg";

/**
 * A fresh, empty database for one test file: a new `kopek_test_<random>` database on a real
 * PostgreSQL when one answers (`TEST_DATABASE_URL`, else the local default), otherwise an in-memory
 * PGlite driven through the real `pg` Pool via PGlite's node-postgres connection, so the adapter's
 * exact SQL and prepared statements run unchanged. `TEST_DATABASE_URL=pglite` forces PGlite.
 */
export interface TestDatabase {
  readonly backend: "postgres" | "pglite";
  /** Only a real server has several connections, other sessions and `pg_terminate_backend`. */
  readonly isRealServer: boolean;
  readonly pool: pg.Pool;
  /** The database's connection string, for other processes (real server only; null on PGlite). */
  readonly url: string | null;
  /** Another pool on the same database (real server only: PGlite has a single connection). */
  newPool(options?: pg.PoolConfig): pg.Pool;
  /** Ends every pool and drops the database. */
  close(): Promise<void>;
}

const DEFAULT_URL = "postgres://postgres@127.0.0.1:5432/postgres";

export async function openTestDatabase(): Promise<TestDatabase> {
  const explicit = process.env.TEST_DATABASE_URL;
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
  console.info(`storage-postgres tests: PostgreSQL at ${url.host}, database ${name}`);
  return {
    backend: "postgres",
    isRealServer: true,
    pool,
    url: url.toString(),
    newPool,
    async close() {
      await Promise.all(pools.map((p) => p.end()));
      await dumpForSecretScan(url.toString(), name);
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
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
