import { randomUUID } from "node:crypto";
import { INVOICE_BODY, SUBSCRIPTION_BODY } from "./bodies.mjs";
import { type LoadLimit, type RunResult, runLoad } from "./load.js";
import type { LoadShape } from "./load-shape.js";
import type { Scenario } from "./options.js";
import type { Placement } from "./placement.js";
import { type BenchProject, type Server, startBaseline, startKopek } from "./servers.js";
import { median, medianRatio } from "./stats.js";

export interface SideFigures {
  readonly reqPerSec: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly cpuMicrosPerRequest: number;
}

/** Kopek against the bare Fastify baseline, A B A B, with medians of runs and of per-pair ratios. */
export interface HttpComparison {
  readonly scenario: Scenario;
  readonly pairs: readonly { readonly baseline: RunResult; readonly kopek: RunResult }[];
  readonly kopek: SideFigures;
  readonly baseline: SideFigures;
  /** Medians of kopek / baseline per pair. */
  readonly ratios: SideFigures;
  /** Why some runs do not count (requests that failed); empty when all are valid. */
  readonly invalid: readonly string[];
}

const PATHS = {
  "http-invoice": ["/v1/invoices", INVOICE_BODY],
  "http-subscription": ["/v1/subscriptions", SUBSCRIPTION_BODY],
  "http-replay": ["/v1/invoices", INVOICE_BODY],
} as const;

export type HttpScenario = keyof typeof PATHS;

export interface HttpContext {
  readonly root: string;
  readonly workDir: string;
  readonly project: BenchProject;
  readonly durationSeconds: number;
  readonly pairs: number;
  /** A number of requests instead of a duration (the smoke: autocannon ends runs on whole seconds). */
  readonly amount?: number | undefined;
  /** Which cores the server and the load run on, and with what load generator. */
  readonly placement: Placement;
  /** Where the servers (both sides) write CPU profiles, or null. */
  readonly cpuProfDir: string | null;
}

/** Long enough for a server to write a profile of a whole run on exit. */
const PROFILE_GRACE_MS = 30_000;

/** Seconds of load before a timed wrk run, so both sides are measured with their code optimised. */
const WARM_UP_SECONDS = 2;

/** The run's length and load generator; with wrk, a warm-up first (not counted). */
async function loadAndMeasure(server: Server, shape: LoadShape, context: HttpContext): Promise<RunResult> {
  if (context.amount !== undefined) return runLoad(server, shape, { amount: context.amount });
  const { wrk } = context.placement;
  const limit: LoadLimit =
    wrk === null
      ? { durationSeconds: context.durationSeconds }
      : { durationSeconds: context.durationSeconds, pinned: { core: wrk.core, workDir: context.workDir } };
  if (wrk !== null) await runLoad(server, shape, { ...limit, durationSeconds: WARM_UP_SECONDS });
  return runLoad(server, shape, limit);
}

/** One run: a fresh server, (for replays) the first request that creates the record, the load, stop. */
async function runOnce(side: Server["name"], scenario: HttpScenario, context: HttpContext) {
  // Both sides are profiled, so a function's cost can be compared with bare Fastify's; a profiled
  // server gets time to write its profile on exit.
  const profiling =
    context.cpuProfDir !== null
      ? [
          "--cpu-prof",
          `--cpu-prof-dir=${context.cpuProfDir}`,
          `--cpu-prof-name=${scenario}-${side}-${Date.now()}.cpuprofile`,
        ]
      : [];
  const server =
    side === "kopek"
      ? await startKopek(
          context.root,
          context.project,
          context.workDir,
          {},
          context.placement.serverCore,
          profiling,
        )
      : await startBaseline(context.root, context.workDir, 0, context.placement.serverCore, profiling);
  try {
    const [path, body] = PATHS[scenario];
    const shape: LoadShape = {
      path,
      body,
      apiKey: context.project.apiKey,
      fixedKey: scenario === "http-replay" ? `replay-${randomUUID()}` : null,
    };
    if (shape.fixedKey !== null) {
      const first = await fetch(`${server.url}${path}`, {
        method: "POST",
        headers: {
          authorization: `Bearer ${shape.apiKey}`,
          "content-type": "application/json",
          "idempotency-key": shape.fixedKey,
        },
        body,
      });
      if (first.status !== 201) throw new Error(`${side}: the first ${path} answered ${first.status}`);
    }
    return await loadAndMeasure(server, shape, context);
  } finally {
    await server.child.stop(profiling.length > 0 ? PROFILE_GRACE_MS : undefined);
  }
}

const figures = (runs: readonly RunResult[]): SideFigures => ({
  reqPerSec: median(runs.map((run) => run.reqPerSec)),
  p50Ms: median(runs.map((run) => run.p50Ms)),
  p99Ms: median(runs.map((run) => run.p99Ms)),
  cpuMicrosPerRequest: median(runs.map((run) => run.cpuMicrosPerRequest)),
});

/** Medians of the per-pair ratios a / b of every figure. */
const ratiosOf = (ab: readonly { a: RunResult; b: RunResult }[]): SideFigures => ({
  reqPerSec: medianRatio(ab, (run) => run.reqPerSec),
  p50Ms: medianRatio(ab, (run) => run.p50Ms),
  p99Ms: medianRatio(ab, (run) => run.p99Ms),
  cpuMicrosPerRequest: medianRatio(ab, (run) => run.cpuMicrosPerRequest),
});

/** Why runs do not count (a request that failed), for the notes; empty when all are valid. */
const problemsOf = (runs: readonly RunResult[]): string[] =>
  runs
    .filter((run) => !run.valid)
    .map(
      (run) =>
        `${run.side}: ${run.non2xx} non-2xx, ${run.errors} errors/timeouts of ${run.completed}${run.died ? ", the server died" : ""}`,
    );

export async function compareHttp(scenario: HttpScenario, context: HttpContext): Promise<HttpComparison> {
  const pairs: { baseline: RunResult; kopek: RunResult }[] = [];
  for (let pair = 0; pair < context.pairs; pair++) {
    const baseline = await runOnce("baseline", scenario, context);
    const kopek = await runOnce("kopek", scenario, context);
    pairs.push({ baseline, kopek });
  }
  return {
    scenario,
    pairs,
    kopek: figures(pairs.map((pair) => pair.kopek)),
    baseline: figures(pairs.map((pair) => pair.baseline)),
    ratios: ratiosOf(pairs.map(({ baseline, kopek }) => ({ a: kopek, b: baseline }))),
    invalid: problemsOf(pairs.flatMap(({ baseline, kopek }) => [baseline, kopek])),
  };
}

/** The baseline with CPU work added to every request, against the bare baseline in the same pair. */
export interface HeadroomResult {
  readonly workMicros: number;
  readonly bare: SideFigures;
  readonly loaded: SideFigures;
  /** Medians of loaded / bare per pair. */
  readonly ratios: SideFigures;
  readonly invalid: readonly string[];
}

/**
 * What any per-request work costs on this machine: bare Fastify, then the same server spinning
 * `workMicros` of CPU in each request, alternated. Kopek's own ratios read against these.
 */
export async function measureHeadroom(
  workMicros: readonly number[],
  context: HttpContext,
): Promise<HeadroomResult[]> {
  const shape: LoadShape = {
    path: PATHS["http-invoice"][0],
    body: PATHS["http-invoice"][1],
    apiKey: context.project.apiKey,
    fixedKey: null,
  };
  const run = async (work: number) => {
    const server = await startBaseline(context.root, context.workDir, work, context.placement.serverCore);
    try {
      return await loadAndMeasure(server, shape, context);
    } finally {
      await server.child.stop();
    }
  };
  const pairs = workMicros.map(() => [] as { bare: RunResult; loaded: RunResult }[]);
  for (let pair = 0; pair < context.pairs; pair++) {
    const bare = await run(0);
    for (const [i, work] of workMicros.entries()) pairs[i]?.push({ bare, loaded: await run(work) });
  }
  return workMicros.map((work, i) => {
    const runs = pairs[i] ?? [];
    return {
      workMicros: work,
      bare: figures(runs.map((r) => r.bare)),
      loaded: figures(runs.map((r) => r.loaded)),
      ratios: ratiosOf(runs.map(({ bare, loaded }) => ({ a: loaded, b: bare }))),
      invalid: problemsOf(runs.flatMap(({ bare, loaded }) => [bare, loaded])),
    };
  });
}
