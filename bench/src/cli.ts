// `pnpm bench`: builds if needed, runs the scenarios, prints the table, writes the JSON; exit 1 when a
// target fails (never in --smoke). Scenario modules load after the build, since they import dist.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { ensureBuilt } from "./build.js";
import { killAllChildren } from "./children.js";
import { type Options, parseOptions, USAGE } from "./options.js";

const root = resolve(import.meta.dirname, "../..");
const origin = performance.now();
const log = (line: string) =>
  process.stderr.write(`bench [${((performance.now() - origin) / 1000).toFixed(1)} s]: ${line}\n`);

let options: Options | "help";
try {
  options = parseOptions(process.argv.slice(2), root);
} catch (cause) {
  process.stderr.write(`bench: ${(cause as Error).message}\n\n${USAGE}`);
  process.exit(2);
}
if (options === "help") {
  process.stdout.write(USAGE);
  process.exit(0);
}

const workDir = mkdtempSync(join(tmpdir(), "kopek-bench-"));
let cleanup: () => Promise<void> = async () => {};
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
  process.once(signal, () => {
    log(`${signal}: stopping every server`);
    killAllChildren();
    void cleanup().finally(() => process.exit(130));
  });
}

const started = performance.now();
try {
  ensureBuilt(root, log);
  const built = performance.now();
  const { runBench } = await import("./run.js");
  const failed = await runBench(options, { root, workDir, log, onCleanup: (work) => (cleanup = work) });
  const seconds = (from: number) => ((performance.now() - from) / 1000).toFixed(1);
  log(`done in ${seconds(started)} s (${seconds(built)} s after the build check)`);
  process.exitCode = failed && !options.smoke ? 1 : 0;
} catch (cause) {
  log(`crashed: ${(cause as Error).stack ?? String(cause)}`);
  process.exitCode = 2;
} finally {
  killAllChildren();
  rmSync(workDir, { recursive: true, force: true });
}
