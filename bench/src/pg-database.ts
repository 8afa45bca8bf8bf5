import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import pg from "pg";

const LOCAL_URL = "postgres://postgres@127.0.0.1:5432/postgres";

/** The server to create the bench database on: DATABASE_URL, else the local one if it answers. */
export async function findPostgres(): Promise<{ url: string } | { skip: string }> {
  const url = process.env.DATABASE_URL ?? LOCAL_URL;
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1500 });
  try {
    await client.connect();
    await client.query("SELECT 1");
    return { url };
  } catch (cause) {
    const where = process.env.DATABASE_URL ? "DATABASE_URL" : "127.0.0.1:5432 (DATABASE_URL unset)";
    return { skip: `no PostgreSQL at ${where}: ${(cause as Error).message}` };
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * Transactions committed in the database so far (`pg_stat_database.xact_commit`). A backend reports
 * its counts when idle or closing, so read it again after the clients have stopped.
 */
export async function committedTransactions(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query("SELECT pg_stat_clear_snapshot()");
    const { rows } = await client.query<{ n: string }>(
      "SELECT xact_commit::text AS n FROM pg_stat_database WHERE datname = current_database()",
    );
    return Number(rows[0]?.n ?? 0);
  } finally {
    await client.end();
  }
}

/** pgbench's path check: `pgbench --version` must run. */
export function pgbenchMissing(): string | null {
  const probe = spawnSync("pgbench", ["--version"], { encoding: "utf8" });
  return probe.status === 0 ? null : "pgbench is not on PATH (apt-get install postgresql-client)";
}

export interface BenchDatabase {
  readonly url: string;
  readonly name: string;
  drop(): Promise<void>;
}

/** A fresh `kopek_bench_<random>` database on the server at `serverUrl`, dropped by `drop()`. */
export async function createBenchDatabase(serverUrl: string): Promise<BenchDatabase> {
  const name = `kopek_bench_${randomBytes(6).toString("hex")}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const drop = async () => {
    undropped.delete(drop);
    await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  };
  undropped.add(drop);
  return { url: url.toString(), name, drop };
}

const undropped = new Set<() => Promise<void>>();

/** Drops every bench database still there (on a signal, when the normal `finally` never runs). */
export async function dropLeftoverDatabases(): Promise<void> {
  await Promise.allSettled([...undropped].map((drop) => drop()));
}

/** Empties the tables the runs write, so every run starts from the same table sizes. */
export async function resetTables(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query("TRUNCATE idempotency_records, invoices, subscriptions");
  } finally {
    await client.end();
  }
}
