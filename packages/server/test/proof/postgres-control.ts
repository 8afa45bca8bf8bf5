import { execFile } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { promisify } from "node:util";
import pg from "pg";

const run = promisify(execFile);

/** The local cluster `pg_ctlcluster` manages (Debian's layout), or null when there is none to restart. */
export function localCluster(): { version: string; name: string } | null {
  if (!existsSync("/etc/postgresql")) return null;
  const version = readdirSync("/etc/postgresql")[0];
  return version === undefined ? null : { version, name: "main" };
}

/** `pg_ctlcluster <version> main stop|start`: a real PostgreSQL restart, sessions and all. */
export async function controlCluster(action: "stop" | "start"): Promise<void> {
  const cluster = localCluster();
  if (cluster === null) throw new Error("no local PostgreSQL cluster to control");
  await run("pg_ctlcluster", ["--skip-systemctl-redirect", cluster.version, cluster.name, action]);
}

/** Waits until a new connection to `url` succeeds. */
export async function waitForPostgres(url: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1000 });
    client.on("error", () => {});
    try {
      await client.connect();
      await client.end();
      return;
    } catch {
      await client.end().catch(() => {});
      if (Date.now() > deadline) throw new Error("PostgreSQL did not come back");
      await sleep(100);
    }
  }
}
