// `pnpm proof:citus [vitest args]`: Kopek's storage on Citus (issue 40). Starts a coordinator and two
// workers on free local ports (packages/server/test/proof/citus-cluster.ts; needs PostgreSQL 15 and
// Citus installed: shared/tools/citus-build.sh), runs vitest.citus.config.ts against the coordinator
// with TEST_DATABASE_SCHEMA=citus (every test database sharded by project_id; a statement that fans
// out across shards fails), stops the cluster, writes what the coordinator refused, by source file, to
// .tmp/citus-refusals.md (scripts/citus-refusals.mjs) and prints the wall times. Not in `pnpm proof`.
import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { refusalReport } from "./citus-refusals.mjs";

const { citusInstalled, startCitusCluster } = await import("../packages/server/test/proof/citus-cluster.ts");

if (!citusInstalled()) {
  console.error("proof:citus: Citus is not installed (/usr/lib/postgresql/15/lib/citus.so)");
  process.exit(1);
}
const started = Date.now();
const cluster = await startCitusCluster({ workers: 2 });
const clusterMs = Date.now() - started;
console.info(
  `proof:citus: coordinator ${cluster.coordinatorUrl}, workers ${cluster.workers.map((w) => w.port).join(", ")} ` +
    `(up in ${(clusterMs / 1000).toFixed(1)} s)`,
);
let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  await cluster.close();
};
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => stop().then(() => process.exit(130)));

const testsStarted = Date.now();
const code = await new Promise((resolve) => {
  const child = spawn(
    "pnpm",
    ["exec", "vitest", "run", "--config", "vitest.citus.config.ts", ...process.argv.slice(2)],
    {
      stdio: "inherit",
      env: { ...process.env, TEST_DATABASE_SCHEMA: "citus", TEST_DATABASE_URL: cluster.coordinatorUrl },
    },
  );
  child.on("exit", (status) => resolve(status ?? 1));
});
const testsMs = Date.now() - testsStarted;
await stop();
// Every statement the coordinator refused, by source file: the list of what still fans out.
const report = refusalReport(readFileSync(cluster.coordinator.logFile, "utf8"), process.cwd());
mkdirSync(".tmp", { recursive: true });
writeFileSync(".tmp/citus-refusals.md", report.text);
console.info(
  `proof:citus: ${report.count} statements refused for sharding, listed in .tmp/citus-refusals.md`,
);
const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
console.info(
  `proof:citus: wall time ${seconds(Date.now() - started)} (cluster start ${seconds(clusterMs)}, ` +
    `tests ${seconds(testsMs)}); vitest exited ${code}`,
);
process.exit(code);
