import {
  compareHttp,
  type HeadroomResult,
  type HttpComparison,
  type HttpScenario,
  measureHeadroom,
} from "./http-scenarios.js";
import { type InProcessResult, measureInProcess } from "./in-process.js";
import { type MemoryResult, measureMemory } from "./memory-scenario.js";
import type { Options } from "./options.js";
import { dropLeftoverDatabases } from "./pg-database.js";
import { comparePostgres, type PgComparison } from "./pg-scenarios.js";
import { choosePlacement } from "./placement.js";
import { environment, formatTable, writeJson } from "./report.js";
import { createBenchProject } from "./servers.js";
import { buildRows } from "./targets.js";

export interface RunContext {
  readonly root: string;
  readonly workDir: string;
  readonly log: (line: string) => void;
  readonly onCleanup: (work: () => Promise<void>) => void;
}

/**
 * A smoke proves every cheap path still runs, in about five seconds; its figures mean nothing. Its
 * HTTP runs are counted in requests: autocannon only ends a timed run on a whole second.
 */
const SMOKE = { durationSeconds: 0.25, pairs: 1, memoryRequests: 500, amount: 300 };

/**
 * The CPU work per request the headroom scenario adds to bare Fastify, in µs: from a little to about
 * what Kopek adds to a create, so its req/s and p99 rows show what that much work alone costs.
 */
const HEADROOM_WORK = [20, 50, 100];

/** Runs the chosen scenarios, prints the table, writes the JSON; true when a target failed. */
export async function runBench(options: Options, context: RunContext): Promise<boolean> {
  const { root, workDir, log } = context;
  context.onCleanup(dropLeftoverDatabases);
  const settings = options.smoke ? { ...options, ...SMOKE } : { ...options, amount: undefined };
  const judge = !options.smoke && options.pairs >= 3;
  const project = createBenchProject(workDir);
  const has = (name: Options["scenarios"][number]) => settings.scenarios.includes(name);
  const notes: string[] = [];
  if (!judge)
    notes.push(
      options.smoke ? "smoke: targets are not judged" : "fewer than 3 pairs: targets are not judged",
    );

  const httpScenarios = ["http-invoice", "http-subscription", "http-replay", "http-headroom"] as const;
  const placement = httpScenarios.some(has) ? choosePlacement(options.smoke, log) : null;
  if (placement !== null) {
    notes.push(`http load: ${placement.description}`);
    if (placement.warning !== null) notes.push(`WARNING: ${placement.warning}`);
  }
  const httpContext = placement === null ? null : { root, workDir, project, placement, ...settings };

  const http: HttpComparison[] = [];
  for (const scenario of ["http-invoice", "http-subscription", "http-replay"] as HttpScenario[]) {
    if (!has(scenario) || httpContext === null) continue;
    const each =
      settings.amount === undefined ? `${settings.durationSeconds} s` : `${settings.amount} requests`;
    log(`${scenario}: ${settings.pairs} pair(s) of ${each} (baseline, kopek)`);
    const comparison = await compareHttp(scenario, httpContext);
    http.push(comparison);
    for (const problem of comparison.invalid) notes.push(`${scenario}: invalid run, ${problem}`);
  }

  let headroom: HeadroomResult[] = [];
  if (has("http-headroom") && httpContext !== null) {
    log(
      `http-headroom: ${settings.pairs} round(s) of bare Fastify, then + ${HEADROOM_WORK.join(" and + ")} µs of CPU per request`,
    );
    headroom = await measureHeadroom(HEADROOM_WORK, httpContext);
    for (const result of headroom)
      for (const problem of result.invalid) notes.push(`http-headroom: invalid run, ${problem}`);
  }

  let postgres: PgComparison | null = null;
  if (has("pg-invoice")) {
    log(
      `pg-invoice: ${settings.pairs} triple(s) of ${Math.max(1, Math.round(settings.durationSeconds))} s (pgbench minimal, kopek, pgbench adapter SQL)`,
    );
    const result = await comparePostgres({ root, workDir, project, ...settings });
    if ("skip" in result) notes.push(`pg-invoice skipped: ${result.skip}`);
    else {
      postgres = result;
      notes.push(...result.notes.map((note) => `pg-invoice: ${note}`));
    }
  }

  let inProcess: InProcessResult | null = null;
  if (has("in-process")) {
    log(`in-process: ${settings.durationSeconds} s after a warm-up`);
    inProcess = await measureInProcess(settings.durationSeconds);
    if (inProcess.failures > 0) notes.push(`in-process: ${inProcess.failures} answers were not 201`);
  }

  let memory: MemoryResult | null = null;
  if (has("memory")) {
    log(`memory: ${settings.memoryRequests} creates, RSS sampled every second`);
    memory = await measureMemory(root, project, workDir, settings.memoryRequests);
    notes.push(...memory.notes.map((note) => `memory: ${note}`));
    if (!memory.run.valid)
      notes.push(`memory: invalid run, ${memory.run.non2xx} non-2xx, ${memory.run.errors} errors`);
  }

  const rows = buildRows({ http, headroom, postgres, inProcess, memory }, judge);
  process.stdout.write(`\n${formatTable(rows)}\n`);
  for (const note of notes) process.stdout.write(`note: ${note}\n`);
  const failed = rows.some((row) => row.verdict === "FAIL");
  writeJson(options.jsonFile, {
    ...environment(root),
    options: settings,
    placement,
    rows,
    notes,
    failed,
    http,
    headroom,
    postgres,
    inProcess,
    memory,
  });
  log(`figures written to ${options.jsonFile}`);
  return failed;
}
