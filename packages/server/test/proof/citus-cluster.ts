import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { appendFileSync, chownSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runStatements } from "../../../storage-postgres/test/citus-database.js";
import { appendLog, newLogFile } from "../test-artifacts.js";
import { freePort, postgresIds } from "./patroni-cluster.js";
import { waitForPostgres } from "./postgres-control.js";

// A Citus 13 cluster on this machine for `pnpm proof:citus` (scripts/proof-citus.mjs): a coordinator
// and two workers, each its own PostgreSQL 15 (initdb'd in a scratch directory, on a free port on
// 127.0.0.1, trust auth, `shared_preload_libraries = 'citus'`, `max_prepared_transactions = 100` for
// Citus's two-phase commits). The coordinator's `postgres` database has the extension and lists the
// workers, which is where the tests' TEST_DATABASE_SCHEMA=citus mode finds them. It proves sharding,
// not durability: fsync is off. PostgreSQL refuses to run as root, so it runs as `postgres`.

const PG_BIN = "/usr/lib/postgresql/15/bin";
const CITUS_LIBRARY = "/usr/lib/postgresql/15/lib/citus.so";

/** Whether PostgreSQL 15 and the Citus extension are installed (shared/tools/citus-build.sh). */
export const citusInstalled = (): boolean => existsSync(`${PG_BIN}/postgres`) && existsSync(CITUS_LIBRARY);

export interface CitusNode {
  readonly name: string;
  readonly port: number;
  readonly dataDir: string;
  /** Its PostgreSQL log under .tmp/logs/: every refused statement is there with its error. */
  readonly logFile: string;
}

export interface CitusCluster {
  /** `postgres://postgres@127.0.0.1:<port>/postgres`: the coordinator's admin database. */
  readonly coordinatorUrl: string;
  readonly coordinator: CitusNode;
  readonly workers: readonly CitusNode[];
  /** Stops every node (fast shutdown) and removes the scratch directory. */
  close(): Promise<void>;
}

export async function startCitusCluster(options: { readonly workers?: number } = {}): Promise<CitusCluster> {
  if (!citusInstalled()) throw new Error(`Citus is not installed: no ${CITUS_LIBRARY}`);
  const dir = mkdtempSync(join(tmpdir(), "kopek-citus-"));
  const ids = process.getuid?.() === 0 ? postgresIds() : null;
  if (ids !== null) chownSync(dir, ids.uid, ids.gid);
  const asPostgres = ids !== null ? ids : {};
  const env = { PATH: process.env.PATH ?? "", HOME: dir, LANG: "C.UTF-8" };

  const names = ["coordinator", ...Array.from({ length: options.workers ?? 2 }, (_, i) => `worker${i + 1}`)];
  const nodes: CitusNode[] = [];
  for (const name of names)
    nodes.push({
      name,
      port: await freePort(),
      dataDir: join(dir, name),
      logFile: newLogFile(`citus-${name}`),
    });
  const children: ChildProcess[] = [];
  const cluster: CitusCluster = {
    coordinatorUrl: `postgres://postgres@127.0.0.1:${nodes[0]?.port}/postgres`,
    coordinator: nodes[0] as CitusNode,
    workers: nodes.slice(1),
    async close() {
      await Promise.all(
        children.map(
          (child) =>
            new Promise<void>((resolve) => {
              if (child.exitCode !== null || child.signalCode !== null) return resolve();
              child.once("exit", () => resolve());
              child.kill("SIGINT"); // fast shutdown: sessions cut, nothing to keep
            }),
        ),
      );
      rmSync(dir, { recursive: true, force: true });
    },
  };

  try {
    for (const node of nodes) {
      const init = spawnSync(
        `${PG_BIN}/initdb`,
        ["-D", node.dataDir, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync"],
        { cwd: dir, env, ...asPostgres, encoding: "utf8" },
      );
      if (init.status !== 0) throw new Error(`initdb ${node.name} failed: ${init.stderr}`);
      appendFileSync(
        join(node.dataDir, "postgresql.conf"),
        [
          `port = ${node.port}`,
          "listen_addresses = '127.0.0.1'",
          `unix_socket_directories = '${dir}'`,
          "shared_preload_libraries = 'citus'",
          "max_prepared_transactions = 100",
          "max_connections = 300",
          "fsync = off",
          "synchronous_commit = off",
          "full_page_writes = off",
          "",
        ].join("\n"),
      );
      const log = node.logFile;
      const child = spawn(`${PG_BIN}/postgres`, ["-D", node.dataDir], {
        cwd: dir,
        env,
        ...asPostgres,
        stdio: ["ignore", "pipe", "pipe"],
      });
      child.stdout?.on("data", (chunk: Buffer) => appendLog(log, chunk.toString()));
      child.stderr?.on("data", (chunk: Buffer) => appendLog(log, chunk.toString()));
      children.push(child);
    }
    const urlOf = (node: CitusNode) => `postgres://postgres@127.0.0.1:${node.port}/postgres`;
    for (const node of nodes) await waitForPostgres(urlOf(node));
    for (const node of cluster.workers) await runStatements(urlOf(node), ["CREATE EXTENSION citus"]);
    await runStatements(cluster.coordinatorUrl, [
      "CREATE EXTENSION citus",
      `SELECT citus_set_coordinator_host('127.0.0.1', ${cluster.coordinator.port})`,
      ...cluster.workers.map((node) => `SELECT citus_add_node('127.0.0.1', ${node.port})`),
    ]);
    return cluster;
  } catch (error) {
    await cluster.close();
    throw error;
  }
}
