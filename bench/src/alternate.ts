// `pnpm bench:alternate`: the create (or replay) load against several builds of Kopek and bare Fastify,
// alternated round by round, pinned as `pnpm bench` pins. How a change is judged before it lands: copy
// the checkout, change the copy (its source and build, or its dist for a quick experiment), and run
// both against bare Fastify in one invocation, so the host's drift hits every side alike.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { ALTERNATE_USAGE, type AlternateOptions, parseAlternateOptions } from "./alternate-options.js";
import { INVOICE_BODY } from "./bodies.mjs";
import { killAllChildren } from "./children.js";
import { type LoadLimit, type RunResult, runLoad } from "./load.js";
import type { LoadShape } from "./load-shape.js";
import { choosePlacement } from "./placement.js";
import { createBenchProject, type Server, startBaseline, startKopek } from "./servers.js";
import { median } from "./stats.js";

const firstAnswer = (run: RunResult) =>
  run.firstAnswerMaxMs === undefined ? "" : `, slowest first answer ${run.firstAnswerMaxMs.toFixed(1)} ms`;
const describe = (run: RunResult) =>
  `${Math.round(run.reqPerSec)} req/s, ${run.cpuMicrosPerRequest.toFixed(1)} µs CPU, p99 ${run.p99Ms.toFixed(1)} ms${firstAnswer(run)}${run.valid ? "" : " (INVALID: a request failed)"}`;

async function main(): Promise<void> {
  let options: AlternateOptions;
  try {
    options = parseAlternateOptions(process.argv.slice(2));
  } catch (cause) {
    process.stderr.write(`bench:alternate: ${(cause as Error).message}\n\n${ALTERNATE_USAGE}`);
    process.exit(2);
  }
  const log = (line: string) => process.stderr.write(`bench:alternate: ${line}\n`);
  const placement = choosePlacement(false, log);
  const workDir = mkdtempSync(join(tmpdir(), "kopek-alternate-"));
  const project = createBenchProject(workDir);
  const shape: LoadShape = {
    path: "/v1/invoices",
    body: INVOICE_BODY,
    apiKey: project.apiKey,
    fixedKey: options.replay ? "alternate-replay-key" : null,
  };
  const limit = (durationSeconds: number): LoadLimit =>
    placement.wrk === null
      ? { durationSeconds }
      : { durationSeconds, pinned: { core: placement.wrk.core, workDir, client: options.client } };
  const runs = new Map<string, RunResult[]>(options.sides.map((side) => [side.label, []]));
  const bareRoot = resolve(import.meta.dirname, "../..");
  try {
    for (let round = 1; round <= options.rounds; round++) {
      for (const side of options.sides) {
        const server: Server =
          side.root === null
            ? await startBaseline(bareRoot, workDir, 0, placement.serverCore)
            : await startKopek(side.root, project, workDir, {}, placement.serverCore);
        try {
          if (shape.fixedKey !== null)
            await fetch(`${server.url}${shape.path}`, {
              method: "POST",
              headers: {
                authorization: `Bearer ${shape.apiKey}`,
                "content-type": "application/json",
                "idempotency-key": shape.fixedKey,
              },
              body: shape.body,
            });
          await runLoad(server, shape, limit(2));
          const run = await runLoad(server, shape, limit(options.durationSeconds));
          runs.get(side.label)?.push(run);
          log(`round ${round} ${side.label}: ${describe(run)}`);
        } finally {
          await server.child.stop();
        }
      }
    }
  } finally {
    rmSync(workDir, { recursive: true, force: true });
  }
  const client =
    options.client === "wrk" || placement.wrk === null ? "" : " (the closed-loop client, not wrk)";
  process.stdout.write(`${placement.description}${client}; medians of ${options.rounds} round(s)\n`);
  for (const [label, sideRuns] of runs) {
    const valid = sideRuns.filter((run) => run.valid);
    const figure = (pick: (run: RunResult) => number) => median(valid.map(pick));
    const first = valid.every((run) => run.firstAnswerMaxMs !== undefined)
      ? `  slowest first answer ${figure((run) => run.firstAnswerMaxMs ?? Number.NaN).toFixed(1)} ms`
      : "";
    process.stdout.write(
      `${label.padEnd(12)} ${Math.round(figure((run) => run.reqPerSec))} req/s  ${figure((run) => run.cpuMicrosPerRequest).toFixed(1)} µs CPU  p99 ${figure((run) => run.p99Ms).toFixed(1)} ms${first}  (${valid.length} valid of ${sideRuns.length})\n`,
    );
  }
}

for (const signal of ["SIGINT", "SIGTERM"] as const)
  process.once(signal, () => {
    killAllChildren();
    process.exit(130);
  });
await main();
