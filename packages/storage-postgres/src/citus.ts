// `distributeForCitus`: the operator step behind `kopek migrate --citus` (issue 40). After `migrate`
// has created Kopek's tables on a Citus coordinator, it makes `projects` and `api_keys` reference
// tables (a copy on every node) and shards every tenant table by `project_id`, all in one colocation
// group, so one project's rows of every table live on the same node. `kopek_migrations` and the
// rate limiter's table stay local to the coordinator.
import { MIGRATION_LOCK_KEY } from "./migrate.js";
import type { PostgresPool } from "./pool.js";

/** Copied to every node: read by key hash or id from any shard's statements. */
export const CITUS_REFERENCE_TABLES = ["projects", "api_keys"] as const;

/**
 * The tables whose every row belongs to one project, sharded (or HASH-partitioned in the tests) by
 * `project_id`. The first is the colocation anchor; a table comes after every table it references.
 */
export const TENANT_TABLES = [
  "idempotency_records",
  "subscriptions",
  "invoices",
  "payments",
  "refunds",
  "customers",
  "events",
  "webhook_endpoints",
  "webhook_deliveries",
  "webhook_delivery_attempts",
] as const;

export interface DistributeResult {
  /** Tables this call made reference tables (empty when they already were). */
  readonly reference: readonly string[];
  /** Tables this call distributed by project_id (empty when they already were). */
  readonly distributed: readonly string[];
}

/**
 * Distributes a migrated schema on a Citus coordinator. Idempotent: tables already in
 * `pg_dist_partition` are left as they are. Throws when the database has no `citus` extension or no
 * Kopek schema yet. Runs under the migration lock, so two operators cannot distribute at once.
 */
export async function distributeForCitus(pool: PostgresPool): Promise<DistributeResult> {
  const client = await pool.connect();
  let broken = false;
  try {
    const { rows: extension } = await client.query("SELECT 1 FROM pg_extension WHERE extname = 'citus'");
    if (extension.length === 0) {
      throw new Error(
        "storage-postgres: the citus extension is not installed in this database; " +
          "run CREATE EXTENSION citus on the coordinator (and add its workers) first",
      );
    }
    const { rows: tables } = await client.query<{ name: string }>({
      text: "SELECT relname AS name FROM pg_class WHERE relname = ANY($1) AND relkind IN ('r', 'p')",
      values: [[...CITUS_REFERENCE_TABLES, ...TENANT_TABLES]],
    });
    const missing = [...CITUS_REFERENCE_TABLES, ...TENANT_TABLES].filter(
      (table) => !tables.some((row) => row.name === table),
    );
    if (missing.length > 0) {
      throw new Error(`storage-postgres: no table ${missing.join(", ")}: run migrate first`);
    }
    await client.query({ text: "SELECT pg_advisory_lock($1)", values: [MIGRATION_LOCK_KEY] });
    const { rows: done } = await client.query<{ name: string }>(
      "SELECT logicalrelid::regclass::text AS name FROM pg_dist_partition",
    );
    const already = new Set(done.map((row) => row.name));
    const reference: string[] = [];
    for (const table of CITUS_REFERENCE_TABLES) {
      if (already.has(table)) continue;
      await naming(table, client.query({ text: "SELECT create_reference_table($1)", values: [table] }));
      reference.push(table);
    }
    const pending = TENANT_TABLES.filter((table) => !already.has(table));
    const [anchor] = TENANT_TABLES;
    // Citus refuses a foreign key between a local and a distributed table, which every step but the
    // last would leave: the keys between tenant tables are dropped, the tables distributed, and the
    // keys made again (shard by shard, so each must include project_id), all in one transaction.
    const { rows: foreignKeys } = await client.query<{ table: string; name: string; definition: string }>({
      text: `SELECT conrelid::regclass::text AS "table", conname AS name, pg_get_constraintdef(oid) AS definition
               FROM pg_constraint
              WHERE contype = 'f' AND conrelid::regclass::text = ANY($1) AND confrelid::regclass::text = ANY($1)
                AND (conrelid::regclass::text = ANY($2) OR confrelid::regclass::text = ANY($2))
              ORDER BY oid`,
      values: [[...TENANT_TABLES], pending],
    });
    await client.query("BEGIN");
    // Tables with keys to a reference table are made over one connection per node within a transaction.
    await client.query("SET LOCAL citus.multi_shard_modify_mode TO 'sequential'");
    for (const key of foreignKeys) await client.query(`ALTER TABLE ${key.table} DROP CONSTRAINT ${key.name}`);
    for (const table of pending) {
      // The anchor starts its own colocation group; every other tenant table joins it.
      const query = client.query({
        text: "SELECT create_distributed_table($1, 'project_id', colocate_with => $2)",
        values: [table, table === anchor ? "none" : anchor],
      });
      await naming(table, query);
    }
    for (const key of foreignKeys) {
      const query = client.query(`ALTER TABLE ${key.table} ADD CONSTRAINT ${key.name} ${key.definition}`);
      await naming(key.table, query);
    }
    await client.query("COMMIT");
    await client.query({ text: "SELECT pg_advisory_unlock($1)", values: [MIGRATION_LOCK_KEY] });
    return { reference, distributed: pending };
  } catch (error) {
    broken = true;
    throw error;
  } finally {
    // After a failure the connection is destroyed, not reused: that also frees the session's lock.
    client.release(broken);
  }
}

/** Citus's refusals often leave the table out: the operator is told which table it refused. */
async function naming<T>(table: string, query: Promise<T>): Promise<T> {
  try {
    return await query;
  } catch (cause) {
    const error = cause as Error & { detail?: string };
    const detail = error.detail ? ` (${error.detail})` : "";
    throw new Error(`storage-postgres: Citus refused ${table}: ${error.message}${detail}`, { cause });
  }
}
