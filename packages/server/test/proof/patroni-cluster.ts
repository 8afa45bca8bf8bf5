import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { appendLog, newLogFile } from "../test-artifacts.js";

// A highly available PostgreSQL on this machine, as docs/operations.md tells an operator to run one:
// three PostgreSQL 15 nodes managed by Patroni (Debian's package) with one etcd as the DCS and
// synchronous replication (`synchronous_mode: true`), behind HAProxy, whose primary port routes only
// to the node Patroni's REST API says is the primary. Kopek sees one stable endpoint.

const PG_BIN = "/usr/lib/postgresql/15/bin";
const TOOLS = ["/usr/bin/patroni", "/usr/bin/etcd", "/usr/sbin/haproxy", `${PG_BIN}/postgres`];

/** Whether Patroni, etcd, HAProxy and PostgreSQL 15 are installed (`.ci/run` installs them). */
export const haToolsInstalled = (): boolean => TOOLS.every((tool) => existsSync(tool));

export interface PatroniNode {
  readonly name: string;
  readonly pgPort: number;
  readonly restPort: number;
  readonly dataDir: string;
}

export interface PatroniCluster {
  /** `postgres://postgres@127.0.0.1:<haproxy>/postgres`: the one endpoint Kopek is given. */
  readonly endpoint: string;
  readonly nodes: readonly PatroniNode[];
  /** The node Patroni's REST API reports as the primary now, or null during a switch. */
  primary(): Promise<PatroniNode | null>;
  /** Waits until a primary and a synchronous standby are up, every node streaming; ms waited. */
  waitHealthy(timeoutMs?: number): Promise<number>;
  /** SIGKILLs the node's postmaster (Patroni lives on and restarts it, or fails over). */
  killPostgres(node: PatroniNode): void;
  /** SIGKILLs the node's Patroni and its postmaster: the whole node group dies. */
  killNode(node: PatroniNode): void;
  /** Starts the node's Patroni again after `killNode`: it rejoins as a replica. */
  restartNode(node: PatroniNode): void;
  close(): Promise<void>;
}

/** A port on 127.0.0.1 that nothing listens on now. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
    server.on("error", reject);
  });
}

/** The `postgres` user's uid and gid: PostgreSQL refuses to run as root. */
export function postgresIds(): { uid: number; gid: number } {
  const passwd = readFileSync("/etc/passwd", "utf8")
    .split("\n")
    .find((line) => line.startsWith("postgres:"));
  const [, , uid = "", gid = ""] = passwd?.split(":") ?? [];
  return { uid: Number(uid), gid: Number(gid) };
}

async function restStatus(node: PatroniNode, path: string): Promise<number> {
  return fetch(`http://127.0.0.1:${node.restPort}${path}`, { signal: AbortSignal.timeout(1000) }).then(
    (response) => response.body?.cancel().then(() => response.status) ?? response.status,
    () => 0,
  );
}

/**
 * A node's REST answer as JSON, or null when there is none to read: no answer, or (while Patroni starts or
 * stops) a body that is not JSON — asked again by the caller's wait, never a failure of the proof.
 */
async function restJson<T>(node: PatroniNode, path: string): Promise<(T & { name: string }) | null> {
  return fetch(`http://127.0.0.1:${node.restPort}${path}`, { signal: AbortSignal.timeout(1000) })
    .then(async (response) => ({ ...((await response.json()) as T), name: node.name }))
    .catch(() => null);
}

/** What a node's Patroni says of itself on `GET /patroni` (Patroni 3.0). */
interface NodeStatus {
  readonly role?: string;
  readonly timeline?: number;
  readonly sync_standby?: boolean;
  /** On the primary: its WAL senders (pg_stat_replication), one per replica connected. */
  readonly replication?: readonly { application_name: string; state: string; sync_state: string }[];
}

/**
 * Ready for the next kill: one primary, every other node streaming from it on its timeline, and in
 * synchronous mode the standby the DCS names synchronous is the one PostgreSQL waits for. Patroni's
 * own `/replica` answers 200 for a replica that runs but is not streaming (its slot not yet made on a
 * new primary, say), and in synchronous mode Patroni promotes only the DCS's synchronous standby
 * (ha.py, is_healthiest_node): a kill while none streams leaves no node allowed to take over.
 */
function healthy(
  statuses: readonly ((NodeStatus & { name: string }) | null)[],
  options: { readonly synchronous: boolean },
): boolean {
  const primaries = statuses.filter((s) => s?.role === "master" || s?.role === "primary");
  const primary = primaries[0];
  if (primaries.length !== 1 || primary === undefined || primary === null) return false;
  const senders = primary.replication ?? [];
  const replicas = statuses.filter((s) => s !== primary);
  const streaming = replicas.every(
    (replica) =>
      replica !== null &&
      replica.role === "replica" &&
      replica.timeline === primary.timeline &&
      senders.some((r) => r.application_name === replica.name && r.state === "streaming"),
  );
  const synchronous = replicas.some(
    (replica) =>
      replica?.sync_standby === true &&
      senders.some((r) => r.application_name === replica.name && r.sync_state === "sync"),
  );
  return streaming && (synchronous || !options.synchronous);
}

/**
 * Starts etcd, three Patroni nodes and HAProxy in a scratch directory; every process is a child of
 * this one and is killed by `close`. PostgreSQL refuses to run as root, so Patroni runs as `postgres`.
 */
export async function startPatroniCluster(options: {
  readonly synchronous: boolean;
}): Promise<PatroniCluster> {
  const dir = mkdtempSync(join(tmpdir(), "kopek-patroni-"));
  const ids = process.getuid?.() === 0 ? postgresIds() : null;
  const owned = (path: string) => {
    mkdirSync(path, { recursive: true, mode: 0o700 });
    if (ids !== null) chownSync(path, ids.uid, ids.gid);
    return path;
  };
  owned(dir);
  const children: ChildProcess[] = [];
  const run = (name: string, command: string, args: string[], asPostgres: boolean) => {
    const log = newLogFile(`patroni-${name}`);
    const child = spawn(command, args, {
      cwd: dir,
      env: { PATH: process.env.PATH ?? "", HOME: dir, LANG: "C.UTF-8" },
      ...(asPostgres && ids !== null ? ids : {}),
      stdio: ["ignore", "pipe", "pipe"],
    });
    child.stdout?.on("data", (chunk: Buffer) => appendLog(log, chunk.toString()));
    child.stderr?.on("data", (chunk: Buffer) => appendLog(log, chunk.toString()));
    children.push(child);
    return child;
  };

  const [etcdClient, etcdPeer, haPort] = [await freePort(), await freePort(), await freePort()];
  run(
    "etcd",
    "/usr/bin/etcd",
    [
      "--name=proof",
      `--data-dir=${join(dir, "etcd")}`,
      `--listen-client-urls=http://127.0.0.1:${etcdClient}`,
      `--advertise-client-urls=http://127.0.0.1:${etcdClient}`,
      `--listen-peer-urls=http://127.0.0.1:${etcdPeer}`,
      `--initial-advertise-peer-urls=http://127.0.0.1:${etcdPeer}`,
      `--initial-cluster=proof=http://127.0.0.1:${etcdPeer}`,
    ],
    false,
  );

  const nodes: PatroniNode[] = [];
  for (const name of ["n1", "n2", "n3"])
    nodes.push({ name, pgPort: await freePort(), restPort: await freePort(), dataDir: join(dir, name) });
  const scope = `kopek-proof-${Date.now()}`;
  const configOf = (node: PatroniNode) => {
    const file = join(dir, `${node.name}.yml`);
    // ttl 10 s: the leader key expires 10 s after the primary's Patroni stops renewing it, which is
    // most of a whole-node failover; loop_wait + 2 × retry_timeout must not exceed it.
    writeFileSync(
      file,
      `scope: ${scope}
name: ${node.name}
restapi:
  listen: 127.0.0.1:${node.restPort}
  connect_address: 127.0.0.1:${node.restPort}
etcd3:
  hosts: 127.0.0.1:${etcdClient}
bootstrap:
  dcs:
    ttl: 10
    loop_wait: 1
    retry_timeout: 4
    synchronous_mode: ${options.synchronous}
    postgresql:
      use_pg_rewind: true
      parameters:
        wal_level: replica
        hot_standby: "on"
        wal_log_hints: "on"
        max_wal_senders: 10
        max_replication_slots: 10
        max_connections: 200
  initdb:
    - encoding: UTF8
    - data-checksums
  pg_hba:
    - local all all trust
    - host all all 127.0.0.1/32 trust
    - host replication all 127.0.0.1/32 trust
postgresql:
  listen: 127.0.0.1:${node.pgPort}
  connect_address: 127.0.0.1:${node.pgPort}
  data_dir: ${node.dataDir}
  bin_dir: ${PG_BIN}
  pgpass: ${join(dir, `${node.name}.pgpass`)}
  authentication:
    superuser:
      username: postgres
      password: proof
    replication:
      username: replicator
      password: proof
  parameters:
    unix_socket_directories: ${dir}
`,
    );
    if (ids !== null) chownSync(file, ids.uid, ids.gid);
    return file;
  };
  const patronis = new Map<string, ChildProcess>();
  const startPatroni = (node: PatroniNode) =>
    patronis.set(node.name, run(node.name, "/usr/bin/patroni", [configOf(node)], true));

  // HAProxy's primary port: only the node whose Patroni answers 200 on /primary; sessions to a node
  // marked down are cut, so no connection outlives its primary.
  const haConfig = join(dir, "haproxy.cfg");
  writeFileSync(
    haConfig,
    `global
  maxconn 2000
defaults
  mode tcp
  timeout connect 2s
  timeout client 30m
  timeout server 30m
  timeout check 1s
listen primary
  bind 127.0.0.1:${haPort}
  option httpchk OPTIONS /primary
  http-check expect status 200
  default-server inter 500ms fall 2 rise 1 on-marked-down shutdown-sessions
${nodes.map((n) => `  server ${n.name} 127.0.0.1:${n.pgPort} maxconn 300 check port ${n.restPort}`).join("\n")}
`,
  );

  const cluster: PatroniCluster = {
    endpoint: `postgres://postgres@127.0.0.1:${haPort}/postgres`,
    nodes,
    async primary() {
      for (const node of nodes) if ((await restStatus(node, "/primary")) === 200) return node;
      return null;
    },
    async waitHealthy(timeoutMs = 120_000) {
      const started = Date.now();
      while (Date.now() - started < timeoutMs) {
        if (healthy(await Promise.all(nodes.map((n) => restJson<NodeStatus>(n, "/patroni"))), options))
          return Date.now() - started;
        await sleep(250);
      }
      throw new Error(`the Patroni cluster was not healthy within ${timeoutMs} ms (logs: patroni-*)`);
    },
    killPostgres(node) {
      const pid = Number(readFileSync(join(node.dataDir, "postmaster.pid"), "utf8").split("\n")[0]);
      process.kill(pid, "SIGKILL");
    },
    killNode(node) {
      patronis.get(node.name)?.kill("SIGKILL");
      try {
        cluster.killPostgres(node);
      } catch {
        // No postmaster (already gone): the node group is dead either way.
      }
    },
    restartNode(node) {
      // A postmaster killed with its Patroni leaves its pid file; Patroni sees the stale pid and starts it.
      startPatroni(node);
    },
    async close() {
      for (const child of children) child.kill("SIGKILL");
      // Postmasters are not our children once their Patroni died: kill them by their pid files.
      for (const node of nodes) {
        try {
          cluster.killPostgres(node);
        } catch {
          // Not running.
        }
      }
      await sleep(200);
      rmSync(dir, { recursive: true, force: true });
    },
  };

  for (const node of nodes) {
    startPatroni(node);
    // The first node bootstraps the cluster; the others then clone it (pg_basebackup).
    if (node === nodes[0]) await waitFor(async () => (await restStatus(node, "/primary")) === 200, 60_000);
  }
  run("haproxy", "/usr/sbin/haproxy", ["-db", "-f", haConfig], false);
  await cluster.waitHealthy();
  return cluster;
}

async function waitFor(check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (await check()) return;
    await sleep(250);
  }
  throw new Error(`timed out after ${timeoutMs} ms (logs: patroni-*)`);
}

/** Installs Patroni, etcd and HAProxy from Debian when missing and this process may (root). */
export function installHaTools(): boolean {
  if (haToolsInstalled()) return true;
  if (process.getuid?.() !== 0) return false;
  const installed = spawnSync("apt-get", ["install", "-y", "patroni", "etcd-server", "haproxy"], {
    stdio: "ignore",
    env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
  });
  return installed.status === 0 && haToolsInstalled();
}
