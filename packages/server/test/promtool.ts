import { spawnSync } from "node:child_process";

export interface PromtoolRun {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** The checker run: `promtool` on the PATH, or KOPEK_PROMTOOL (another build, or a missing one to try the skip). */
const PROMTOOL = process.env.KOPEK_PROMTOOL ?? "promtool";

/** Whether `promtool` (Prometheus's checker; Debian's `prometheus` package) runs here. */
export function promtoolInstalled(): boolean {
  const probe = spawnSync(PROMTOOL, ["--version"], { encoding: "utf8" });
  return probe.error === undefined && probe.status === 0;
}

/**
 * What a test needing promtool does without it: skipped with the reason on a developer's machine,
 * failed in CI (`CI` set), where .ci/run installs it. `skip` is the test context's.
 */
export function requirePromtool(skip: (note: string) => void): void {
  if (promtoolInstalled()) return;
  const why = "promtool is not installed (apt-get install prometheus)";
  if (process.env.CI) throw new Error(`${why}: CI must run this check`);
  console.warn(`skipped: ${why}`);
  skip(why);
}

/** Runs `promtool args…` with `input` on its standard input. */
export function promtool(args: readonly string[], input?: string): PromtoolRun {
  const run = spawnSync(PROMTOOL, args, { encoding: "utf8", ...(input === undefined ? {} : { input }) });
  if (run.error !== undefined) throw run.error;
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}
