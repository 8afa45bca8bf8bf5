// Test-only (TEST_DATABASE_SCHEMA=citus, test/database.ts): makes a freshly created test database on
// a Citus coordinator a Citus database. The same database is created on every worker, each gets the
// `citus` extension, the coordinator learns its own address and the workers', then the schema is
// migrated and distributed as `kopek migrate --citus` does (src/citus.ts). Last, any statement that
// fans out over several shards is made an error for every later session of the database, so a test
// fails on a statement that does not name its project.
//
// Workers: `TEST_CITUS_WORKERS` (`host:port,host:port`) when set, else the coordinator's active
// workers as its admin database (TEST_DATABASE_URL's) lists them with citus_get_active_worker_nodes().
import pg from "pg";
import { distributeForCitus } from "../src/citus.js";
import { migrate } from "../src/index.js";

/** Shards per distributed table in the tests: enough to spread each table over both workers. */
const TEST_SHARD_COUNT = 8;

interface Node {
  readonly host: string;
  readonly port: number;
}

/** What the database needs at close: dropping it on every worker too. */
export interface CitusDatabase {
  readonly workers: readonly Node[];
  dropOnWorkers(): Promise<void>;
}

export async function prepareCitusDatabase(
  admin: pg.Client,
  adminUrl: string,
  name: string,
): Promise<CitusDatabase> {
  const coordinator = new URL(adminUrl);
  const workers = await workerNodes(admin);
  if (workers.length === 0) throw new Error("TEST_DATABASE_SCHEMA=citus: the coordinator lists no workers");
  const urlOf = (node: Node, database: string) => {
    const url = new URL(adminUrl);
    url.hostname = node.host;
    url.port = String(node.port);
    url.pathname = `/${database}`;
    return url.toString();
  };
  const database: CitusDatabase = {
    workers,
    async dropOnWorkers() {
      for (const node of workers)
        await runStatements(urlOf(node, "postgres"), [`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`]);
    },
  };
  try {
    for (const node of workers) {
      await runStatements(urlOf(node, "postgres"), [`CREATE DATABASE ${name}`]);
      await runStatements(urlOf(node, name), ["CREATE EXTENSION citus"]);
    }
    const self = { host: coordinator.hostname, port: Number(coordinator.port || 5432) };
    await runStatements(urlOf(self, name), [
      "CREATE EXTENSION citus",
      `SELECT citus_set_coordinator_host('${self.host}', ${self.port})`,
      ...workers.map((node) => `SELECT citus_add_node('${node.host}', ${node.port})`),
      `ALTER DATABASE ${name} SET citus.shard_count = ${TEST_SHARD_COUNT}`,
    ]);
    // A new session sees the shard count; the pool is ended before the fan-out rule is set.
    const setup = new pg.Pool({ connectionString: urlOf(self, name), max: 1 });
    try {
      await migrate(setup);
      await distributeForCitus(setup);
    } finally {
      await setup.end();
    }
    await admin.query(`ALTER DATABASE ${name} SET citus.multi_task_query_log_level = 'error'`);
    return database;
  } catch (error) {
    await database.dropOnWorkers().catch(() => {});
    throw new Error(`TEST_DATABASE_SCHEMA=citus: ${(error as Error).message}`, { cause: error });
  }
}

async function workerNodes(admin: pg.Client): Promise<Node[]> {
  const listed = process.env.TEST_CITUS_WORKERS;
  if (listed !== undefined && listed !== "") {
    return listed.split(",").map((entry) => {
      const [host = "", port = ""] = entry.trim().split(":");
      if (host === "" || !/^\d+$/.test(port)) throw new Error(`TEST_CITUS_WORKERS: not host:port: ${entry}`);
      return { host, port: Number(port) };
    });
  }
  const { rows } = await admin.query<{ node_name: string; node_port: number }>(
    "SELECT node_name, node_port FROM citus_get_active_worker_nodes() ORDER BY node_name, node_port",
  );
  return rows.map((row) => ({ host: row.node_name, port: Number(row.node_port) }));
}

/** Runs statements one by one on a connection of their own (CREATE DATABASE takes no transaction). */
export async function runStatements(url: string, statements: readonly string[]): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    for (const statement of statements) await client.query(statement);
  } finally {
    await client.end();
  }
}
