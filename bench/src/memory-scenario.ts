import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { INVOICE_BODY } from "./bodies.mjs";
import { rssBytes } from "./children.js";
import { type RunResult, runLoad } from "./load.js";
import { type BenchProject, startKopek } from "./servers.js";

export const IDEMPOTENCY_TTL_MS = 2000;
const CHECKPOINT = 200_000;

export interface MemoryResult {
  readonly requests: number;
  readonly rssBeforeBytes: number;
  /** RSS when the checkpoint's request (200k, or 10 % of a smaller count) was sent. */
  readonly rssAtCheckpointBytes: number;
  readonly checkpointRequests: number;
  readonly rssEndBytes: number;
  /** end / checkpoint: 1.0 means flat. */
  readonly growth: number;
  /** RSS once a second: [seconds since the start, bytes]. */
  readonly samples: readonly (readonly [number, number])[];
  readonly run: RunResult;
  readonly notes: readonly string[];
}

/** Whether the built server reads the variable; otherwise records live 24 h and RSS cannot level off. */
function serverKnowsTtlVariable(root: string): boolean {
  const dist = join(root, "packages/server/dist");
  return readdirSync(dist)
    .filter((file) => file.endsWith(".js"))
    .some((file) => readFileSync(join(dist, file), "utf8").includes("KOPEK_IDEMPOTENCY_TTL_MS"));
}

/** 2 million (by default) creates with unique keys and a 2 s key lifetime, RSS sampled every second. */
export async function measureMemory(
  root: string,
  project: BenchProject,
  workDir: string,
  requests: number,
): Promise<MemoryResult> {
  const notes: string[] = [];
  if (!serverKnowsTtlVariable(root))
    notes.push(
      "the built server does not read KOPEK_IDEMPOTENCY_TTL_MS yet: keys live 24 h, so RSS cannot level off",
    );
  const server = await startKopek(root, project, workDir, {
    KOPEK_IDEMPOTENCY_TTL_MS: String(IDEMPOTENCY_TTL_MS),
  });
  const pid = server.child.pid;
  const checkpointRequests = Math.min(CHECKPOINT, Math.ceil(requests / 10));
  const started = performance.now();
  const samples: [number, number][] = [];
  const sample = () => samples.push([(performance.now() - started) / 1000, rssBytes(pid)]);
  try {
    const rssBeforeBytes = rssBytes(pid);
    let rssAtCheckpointBytes = Number.NaN;
    const timer = setInterval(sample, 1000);
    const run = await runLoad(
      server,
      { path: "/v1/invoices", body: INVOICE_BODY, apiKey: project.apiKey, fixedKey: null },
      {
        amount: requests,
        onRequest: (sent) => {
          if (sent === checkpointRequests) rssAtCheckpointBytes = rssBytes(pid);
        },
      },
    ).finally(() => clearInterval(timer));
    const rssEndBytes = rssBytes(pid);
    sample();
    return {
      requests,
      rssBeforeBytes,
      rssAtCheckpointBytes,
      checkpointRequests,
      rssEndBytes,
      growth: rssEndBytes / rssAtCheckpointBytes,
      samples,
      run,
      notes,
    };
  } finally {
    await server.child.stop();
  }
}
