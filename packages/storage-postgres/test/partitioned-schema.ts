// Test-only (TEST_DATABASE_SCHEMA=partitioned, test/database.ts): rebuilds every tenant table of a
// migrated database as a table HASH-partitioned by `project_id` into 4 partitions. PostgreSQL then
// enforces what Citus does for a table sharded by project_id: every primary and unique key must
// include project_id, and every statement still has to work when a project's rows sit in one
// partition among several. `projects` and `api_keys` stay plain (reference tables on Citus).
import type pg from "pg";
import { TENANT_TABLES } from "../src/citus.js";

const PARTITIONS = 4;

interface Definition {
  readonly table: string;
  readonly name: string;
  readonly sql: string;
}

/**
 * One transaction: captures the foreign keys from and to the tenant tables, their keys, indexes and
 * triggers; drops the foreign keys; for each table, renames it away, creates it again with
 * `LIKE … INCLUDING ALL EXCLUDING INDEXES` partitioned by HASH (project_id), adds the partitions,
 * copies the rows and drops the old one; then re-creates keys, indexes (under their own names, which
 * the adapter's error mapping reads), triggers and foreign keys from their captured definitions.
 */
export async function partitionTenantTables(client: pg.ClientBase): Promise<void> {
  const tables = [...TENANT_TABLES];
  let statement = "BEGIN";
  // Every statement through here, so a refusal names the statement PostgreSQL refused.
  const run = async (sql: string) => {
    statement = sql;
    await client.query(sql);
  };
  await run("BEGIN");
  try {
    const foreignKeys = await definitions(
      client,
      `SELECT conrelid::regclass::text AS "table", conname AS name, pg_get_constraintdef(oid) AS sql
         FROM pg_constraint
        WHERE contype = 'f' AND (conrelid::regclass::text = ANY($1) OR confrelid::regclass::text = ANY($1))
        ORDER BY oid`,
      tables,
    );
    const keys = await definitions(
      client,
      `SELECT conrelid::regclass::text AS "table", conname AS name, pg_get_constraintdef(oid) AS sql
         FROM pg_constraint
        WHERE contype IN ('p', 'u', 'x') AND conrelid::regclass::text = ANY($1)
        ORDER BY oid`,
      tables,
    );
    const indexes = await definitions(
      client,
      `SELECT i.indrelid::regclass::text AS "table", i.indexrelid::regclass::text AS name,
              pg_get_indexdef(i.indexrelid) AS sql
         FROM pg_index i
        WHERE i.indrelid::regclass::text = ANY($1)
          AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = i.indexrelid)
        ORDER BY i.indexrelid`,
      tables,
    );
    const triggers = await definitions(
      client,
      `SELECT tgrelid::regclass::text AS "table", tgname AS name, pg_get_triggerdef(oid) AS sql
         FROM pg_trigger
        WHERE NOT tgisinternal AND tgrelid::regclass::text = ANY($1)
        ORDER BY oid`,
      tables,
    );
    for (const fk of foreignKeys) await run(`ALTER TABLE ${fk.table} DROP CONSTRAINT ${fk.name}`);
    for (const table of tables) for (const sql of rebuild(table)) await run(sql);
    for (const key of keys) await run(`ALTER TABLE ${key.table} ADD CONSTRAINT ${key.name} ${key.sql}`);
    for (const definition of [...indexes, ...triggers]) await run(definition.sql);
    for (const fk of foreignKeys) await run(`ALTER TABLE ${fk.table} ADD CONSTRAINT ${fk.name} ${fk.sql}`);
    await run("COMMIT");
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw new Error(`TEST_DATABASE_SCHEMA=partitioned: ${(error as Error).message}; refused: ${statement}`, {
      cause: error,
    });
  }
}

/** The statements that rebuild one table as a partitioned one, rows and all. */
function rebuild(table: string): string[] {
  const old = `${table}_unpartitioned`;
  const partitions = Array.from(
    { length: PARTITIONS },
    (_, i) =>
      `CREATE TABLE ${table}_p${i} PARTITION OF ${table} FOR VALUES WITH (MODULUS ${PARTITIONS}, REMAINDER ${i})`,
  );
  return [
    `ALTER TABLE ${table} RENAME TO ${old}`,
    `CREATE TABLE ${table} (LIKE ${old} INCLUDING ALL EXCLUDING INDEXES) PARTITION BY HASH (project_id)`,
    ...partitions,
    `INSERT INTO ${table} SELECT * FROM ${old}`,
    `DROP TABLE ${old}`,
  ];
}

async function definitions(client: pg.ClientBase, text: string, tables: string[]): Promise<Definition[]> {
  return (await client.query<Definition>({ text, values: [tables] })).rows;
}
