import type { HeadroomResult, HttpComparison } from "./http-scenarios.js";
import type { InProcessResult } from "./in-process.js";
import type { MemoryResult } from "./memory-scenario.js";
import type { PgComparison } from "./pg-scenarios.js";

/** One line of the table: a figure of Kopek's, its reference, their ratio, and the target if any. */
export interface Row {
  readonly scenario: string;
  readonly kopek: string;
  readonly baseline: string;
  readonly ratio: number | null;
  /** e.g. `>= 0.60`; empty when the figure has no target. */
  readonly target: string;
  /** PASS/FAIL; `-` with no target, `n/a` when targets are not judged (smoke, < 3 pairs, skipped). */
  readonly verdict: "PASS" | "FAIL" | "-" | "n/a";
}

/** Issue 5, part 2, and issue 14, part 6 (p99 of replays too). */
export const TARGETS = {
  invoiceReqPerSec: 0.6,
  invoiceCpu: 2,
  invoiceP99: 2,
  replayReqPerSec: 0.8,
  replayP99: 2,
  postgresToMinimal: 0.45,
  memoryGrowth: 1.5,
} as const;

const fixed = (value: number, digits = 0) => (Number.isFinite(value) ? value.toFixed(digits) : "?");
const mib = (bytes: number) => `${fixed(bytes / 2 ** 20)} MiB`;

export function buildRows(
  results: {
    http: readonly HttpComparison[];
    headroom: readonly HeadroomResult[];
    postgres: PgComparison | null;
    inProcess: InProcessResult | null;
    memory: MemoryResult | null;
  },
  judge: boolean,
): Row[] {
  const rows: Row[] = [];
  const row = (
    scenario: string,
    kopek: string,
    baseline: string,
    ratio: number | null,
    min?: number,
    max?: number,
    valid = true,
  ): void => {
    const target =
      min !== undefined ? `>= ${min.toFixed(2)}` : max !== undefined ? `<= ${max.toFixed(2)}` : "";
    let verdict: Row["verdict"] = "-";
    if (target !== "") {
      const ok = ratio !== null && valid && (min !== undefined ? ratio >= min : ratio <= (max as number));
      verdict = judge ? (ok ? "PASS" : "FAIL") : "n/a";
    }
    rows.push({ scenario, kopek, baseline, ratio, target, verdict });
  };
  for (const c of results.http) {
    const valid = c.invalid.length === 0;
    const invoice = c.scenario === "http-invoice";
    const replay = c.scenario === "http-replay";
    row(
      `${c.scenario} req/s`,
      fixed(c.kopek.reqPerSec),
      fixed(c.baseline.reqPerSec),
      c.ratios.reqPerSec,
      invoice ? TARGETS.invoiceReqPerSec : replay ? TARGETS.replayReqPerSec : undefined,
      undefined,
      valid,
    );
    row(
      `${c.scenario} CPU µs/req`,
      fixed(c.kopek.cpuMicrosPerRequest),
      fixed(c.baseline.cpuMicrosPerRequest),
      c.ratios.cpuMicrosPerRequest,
      undefined,
      invoice ? TARGETS.invoiceCpu : undefined,
      valid,
    );
    row(`${c.scenario} p50 ms`, fixed(c.kopek.p50Ms, 1), fixed(c.baseline.p50Ms, 1), c.ratios.p50Ms);
    row(
      `${c.scenario} p99 ms`,
      fixed(c.kopek.p99Ms, 1),
      fixed(c.baseline.p99Ms, 1),
      c.ratios.p99Ms,
      undefined,
      invoice ? TARGETS.invoiceP99 : replay ? TARGETS.replayP99 : undefined,
      valid,
    );
  }
  for (const h of results.headroom) {
    const name = `bare Fastify + ${h.workMicros} µs/req`;
    row(`${name} req/s`, fixed(h.loaded.reqPerSec), fixed(h.bare.reqPerSec), h.ratios.reqPerSec);
    row(
      `${name} CPU µs/req`,
      fixed(h.loaded.cpuMicrosPerRequest),
      fixed(h.bare.cpuMicrosPerRequest),
      h.ratios.cpuMicrosPerRequest,
    );
    row(`${name} p99 ms`, fixed(h.loaded.p99Ms, 1), fixed(h.bare.p99Ms, 1), h.ratios.p99Ms);
  }
  const pg = results.postgres;
  if (pg !== null) {
    const kopek = pg.kopekReqPerSec === null ? "not run" : `${fixed(pg.kopekReqPerSec)} req/s`;
    const valid = pg.notes.length === 0;
    row(
      "pg-invoice vs minimal CTE",
      kopek,
      `${fixed(pg.minimalTps)} tps`,
      pg.ratioToMinimal,
      TARGETS.postgresToMinimal,
      undefined,
      valid,
    );
    row("pg-invoice vs adapter SQL", kopek, `${fixed(pg.adapterTps)} tps`, pg.ratioToAdapter);
    row("pg-invoice statements/lone create", String(pg.roundTrips), "1", pg.roundTrips, undefined, undefined);
    if (pg.commitsPerCreate !== null)
      row("pg-invoice transactions/create", fixed(pg.commitsPerCreate, 2), "1", pg.commitsPerCreate);
  }
  if (results.inProcess !== null) {
    const r = results.inProcess;
    row("in-process ops/s (µs/op)", `${fixed(r.opsPerSec)} (${fixed(r.microsPerOp, 1)})`, "", null);
  }
  const m = results.memory;
  if (m !== null) {
    row(
      `memory RSS before / at ${m.checkpointRequests}`,
      mib(m.rssBeforeBytes),
      mib(m.rssAtCheckpointBytes),
      null,
    );
    row(
      `memory RSS end (${m.requests}) / at ${m.checkpointRequests}`,
      mib(m.rssEndBytes),
      mib(m.rssAtCheckpointBytes),
      m.growth,
      undefined,
      TARGETS.memoryGrowth,
      m.run.valid,
    );
  }
  return rows;
}
