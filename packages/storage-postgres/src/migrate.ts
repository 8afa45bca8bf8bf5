import { createHash } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import type { PostgresPool, PostgresPoolClient } from "./pool.js";

/** One versioned SQL file from `migrations/`. */
export interface Migration {
  readonly version: number;
  readonly name: string;
  readonly sql: string;
}

export interface MigrateOptions {
  /** Where the SQL files live; defaults to the package's own `migrations/` folder. */
  readonly directory?: URL;
}

export interface MigrateResult {
  /** Versions this call applied (empty when the schema was already current). */
  readonly applied: readonly number[];
}

/** Key for `pg_advisory_lock`: two servers starting at once apply each migration exactly once. */
export const MIGRATION_LOCK_KEY = 0x6b6f70656b; // "kopek"

const FILE_NAME = /^(\d{4})_([a-z0-9_]+)\.sql$/;
const DEFAULT_DIRECTORY = new URL("../migrations/", import.meta.url);

/**
 * Applies the pending migrations in version order, each in its own transaction, under an advisory
 * lock. Throws when an applied migration's file changed or disappeared: released migrations are
 * never edited. The caller owns the pool.
 */
export async function migrate(pool: PostgresPool, options: MigrateOptions = {}): Promise<MigrateResult> {
  const migrations = await loadMigrations(options.directory ?? DEFAULT_DIRECTORY);
  const client = await pool.connect();
  let broken = false;
  try {
    await client.query({ text: "SELECT pg_advisory_lock($1)", values: [MIGRATION_LOCK_KEY] });
    const result = await applyPending(client, migrations);
    await client.query({ text: "SELECT pg_advisory_unlock($1)", values: [MIGRATION_LOCK_KEY] });
    return result;
  } catch (error) {
    broken = true;
    throw error;
  } finally {
    // After a failure the connection is destroyed, not reused: that also frees the session's lock.
    client.release(broken);
  }
}

async function applyPending(client: PostgresPoolClient, migrations: readonly Migration[]) {
  await client.query(
    `CREATE TABLE IF NOT EXISTS kopek_migrations (
       version integer PRIMARY KEY,
       name text NOT NULL,
       checksum text NOT NULL,
       applied_at timestamptz NOT NULL DEFAULT now()
     )`,
  );
  const { rows } = await client.query<{ version: number; name: string; checksum: string }>(
    "SELECT version, name, checksum FROM kopek_migrations ORDER BY version",
  );
  const files = new Map(migrations.map((m) => [m.version, m]));
  for (const row of rows) {
    const file = files.get(row.version);
    if (file === undefined) {
      throw new Error(`storage-postgres: applied migration ${row.version} (${row.name}) has no file`);
    }
    if (checksum(file.sql) !== row.checksum) {
      throw new Error(
        `storage-postgres: migration ${formatVersion(row.version)}_${row.name}.sql changed after it was applied; ` +
          "released migrations are never edited, add a new one instead",
      );
    }
  }
  const done = new Set(rows.map((r) => r.version));
  const applied: number[] = [];
  for (const migration of migrations) {
    if (done.has(migration.version)) continue;
    await client.query("BEGIN");
    try {
      await client.query(migration.sql);
      await client.query({
        text: "INSERT INTO kopek_migrations (version, name, checksum) VALUES ($1, $2, $3)",
        values: [migration.version, migration.name, checksum(migration.sql)],
      });
      await client.query("COMMIT");
    } catch (error) {
      await client.query("ROLLBACK");
      throw error;
    }
    applied.push(migration.version);
  }
  return { applied };
}

/** Reads `NNNN_name.sql` files in version order; anything else in the folder is an error. */
export async function loadMigrations(directory: URL): Promise<Migration[]> {
  const names = (await readdir(directory)).sort();
  const migrations: Migration[] = [];
  for (const fileName of names) {
    const match = FILE_NAME.exec(fileName);
    if (match === null) throw new Error(`storage-postgres: unexpected file in migrations: ${fileName}`);
    const version = Number(match[1]);
    if (version !== migrations.length + 1) {
      throw new Error(`storage-postgres: migration ${fileName} is out of sequence`);
    }
    const sql = await readFile(new URL(fileName, directory), "utf8");
    migrations.push({ version, name: match[2] ?? "", sql });
  }
  return migrations;
}

/** SHA-256 over the file's exact bytes. */
export function checksum(sql: string): string {
  return createHash("sha256").update(sql, "utf8").digest("hex");
}

function formatVersion(version: number): string {
  return String(version).padStart(4, "0");
}
