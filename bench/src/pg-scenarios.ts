import { randomBytes } from "node:crypto";
import { INVOICE_BODY } from "./bodies.mjs";
import { type RunResult, runLoad } from "./load.js";
import { captureAdapterSql } from "./pg-capture.js";
import {
  committedTransactions,
  createBenchDatabase,
  findPostgres,
  pgbenchMissing,
  resetTables,
} from "./pg-database.js";
import { type PgbenchResult, runPgbench } from "./pgbench.js";
import { adapterScript, minimalScript } from "./pgbench-scripts.js";
import { type BenchProject, startKopek } from "./servers.js";
import { median, medianRatio } from "./stats.js";

export interface PgComparison {
  readonly database: string;
  readonly pairs: readonly {
    readonly kopek: RunResult | null;
    /** Transactions the database committed per completed Kopek request during the run. */
    readonly kopekCommitsPerRequest: number | null;
    readonly minimal: PgbenchResult;
    readonly adapter: PgbenchResult;
  }[];
  /** Median Kopek req/s; null when the server could not run on PostgreSQL. */
  readonly kopekReqPerSec: number | null;
  readonly minimalTps: number;
  readonly adapterTps: number;
  /** Medians of per-pair kopek req/s ÷ pgbench tps. */
  readonly ratioToMinimal: number | null;
  readonly ratioToAdapter: number | null;
  /** Median transactions committed per create under the bench load (below 1: creates were batched). */
  readonly commitsPerCreate: number | null;
  /** Statements per create request in steady state, and on a fresh instance, for a lone request. */
  readonly roundTrips: number;
  readonly firstRequestRoundTrips: number;
  readonly adapterScript: string;
  readonly notes: readonly string[];
}

export interface PgContext {
  readonly root: string;
  readonly workDir: string;
  readonly project: BenchProject;
  readonly durationSeconds: number;
  readonly pairs: number;
}

/** Kopek on PostgreSQL, alternated with pgbench on the minimal CTE and on the adapter's own SQL. */
export async function comparePostgres(context: PgContext): Promise<PgComparison | { skip: string }> {
  const missing = pgbenchMissing();
  if (missing !== null) return { skip: missing };
  const found = await findPostgres();
  if ("skip" in found) return found;
  const database = await createBenchDatabase(found.url);
  try {
    const capture = await captureAdapterSql(database.url, context.project);
    const adapter = adapterScript(capture.statements, capture.previous);
    const minimal = minimalScript(context.project.id);
    const notes: string[] = [];
    const env = { DATABASE_URL: database.url, KOPEK_ENCRYPTION_KEY: randomBytes(32).toString("base64") };
    const pairs: PgComparison["pairs"][number][] = [];
    const seconds = Math.max(1, Math.round(context.durationSeconds));
    for (let pair = 0; pair < context.pairs; pair++) {
      await resetTables(database.url);
      const minimalRun = await runPgbench(database.url, minimal, seconds, context.workDir, "minimal");
      await resetTables(database.url);
      let kopek: RunResult | null = null;
      let kopekCommitsPerRequest: number | null = null;
      if (notes.length === 0) {
        try {
          const server = await startKopek(context.root, context.project, context.workDir, env);
          let commitsBefore = 0;
          try {
            const shape = {
              path: "/v1/invoices",
              body: INVOICE_BODY,
              apiKey: context.project.apiKey,
              fixedKey: null,
            };
            commitsBefore = await committedTransactions(database.url);
            kopek = await runLoad(server, shape, { durationSeconds: seconds });
          } finally {
            await server.child.stop();
          }
          const commits = (await committedTransactions(database.url)) - commitsBefore;
          kopekCommitsPerRequest = kopek.completed > 0 ? commits / kopek.completed : null;
        } catch (cause) {
          notes.push(`the Kopek server could not run on PostgreSQL: ${(cause as Error).message}`);
        }
      }
      await resetTables(database.url);
      const adapterRun = await runPgbench(database.url, adapter, seconds, context.workDir, "adapter");
      pairs.push({ kopek, kopekCommitsPerRequest, minimal: minimalRun, adapter: adapterRun });
    }
    for (const { kopek } of pairs)
      if (kopek !== null && !kopek.valid)
        notes.push(`kopek run invalid: ${kopek.non2xx} non-2xx, ${kopek.errors} errors/timeouts`);
    for (const { minimal: m, adapter: a } of pairs)
      for (const [name, run] of [
        ["minimal", m],
        ["adapter", a],
      ] as const)
        if (!run.valid) notes.push(`pgbench ${name}: ${run.problem}`);
    const withKopek = pairs.filter((pair) => pair.kopek !== null) as {
      kopek: RunResult;
      kopekCommitsPerRequest: number | null;
      minimal: PgbenchResult;
      adapter: PgbenchResult;
    }[];
    const commits = withKopek.flatMap((pair) => pair.kopekCommitsPerRequest ?? []);
    const ratio = (other: "minimal" | "adapter") =>
      withKopek.length === 0
        ? null
        : medianRatio(
            withKopek.map((pair) => ({ a: pair.kopek.reqPerSec, b: pair[other].tps })),
            (value) => value,
          );
    return {
      database: database.name,
      pairs,
      kopekReqPerSec: withKopek.length === 0 ? null : median(withKopek.map((pair) => pair.kopek.reqPerSec)),
      minimalTps: median(pairs.map((pair) => pair.minimal.tps)),
      adapterTps: median(pairs.map((pair) => pair.adapter.tps)),
      ratioToMinimal: ratio("minimal"),
      ratioToAdapter: ratio("adapter"),
      commitsPerCreate: commits.length === 0 ? null : median(commits),
      roundTrips: capture.statements.length,
      firstRequestRoundTrips: capture.firstRequestRoundTrips,
      adapterScript: adapter,
      notes,
    };
  } finally {
    await database.drop();
  }
}
