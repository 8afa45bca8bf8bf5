import { resolve } from "node:path";
import { parseArgs } from "node:util";

export const SCENARIOS = [
  "http-invoice",
  "http-subscription",
  "http-replay",
  "http-headroom",
  "pg-invoice",
  "in-process",
  "memory",
] as const;
export type Scenario = (typeof SCENARIOS)[number];

/** What `--smoke` runs: everything that needs neither PostgreSQL nor minutes of load. */
const SMOKE_SCENARIOS: readonly Scenario[] = [
  "http-invoice",
  "http-subscription",
  "http-replay",
  "http-headroom",
  "in-process",
  "memory",
];

export interface Options {
  /** Seconds of load per run. */
  readonly durationSeconds: number;
  /** A/B pairs per comparison; targets are judged only with 3 or more. */
  readonly pairs: number;
  readonly scenarios: readonly Scenario[];
  /** Create requests the memory scenario sends. */
  readonly memoryRequests: number;
  readonly jsonFile: string;
  readonly smoke: boolean;
  /** Where the servers of the HTTP scenarios, both sides, write CPU profiles (`node --cpu-prof`), or null. */
  readonly cpuProfDir: string | null;
}

export const USAGE = `Usage: pnpm bench [options]

  --duration <s>      seconds of load per run (default 10)
  --pairs <n>         A/B pairs per comparison (default 3; targets need at least 3)
  --scenarios <list>  comma-separated, default all: ${SCENARIOS.join(", ")}
  --requests <n>      create requests of the memory scenario (default 2000000)
  --json <file>       where the figures go (default bench/results/latest.json)
  --cpu-prof <dir>    the servers of the HTTP scenarios (both sides) write CPU profiles there (node --cpu-prof);
                      summarise one with: node bench/src/profile-summary.mjs <file> [requests or -]
  --smoke             ~5 s: one short run of each cheap scenario, no targets, exit 0 unless it crashed
  --help              this text
`;

function positive(name: string, text: string, allowFraction = false): number {
  const value = Number(text);
  if (!Number.isFinite(value) || value <= 0 || (!allowFraction && !Number.isInteger(value)))
    throw new Error(`--${name} must be a positive ${allowFraction ? "number" : "integer"}, got "${text}"`);
  return value;
}

/** Parses the command line; throws an Error whose message is fit for the user. */
export function parseOptions(argv: readonly string[], root: string): Options | "help" {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      duration: { type: "string", default: "10" },
      pairs: { type: "string", default: "3" },
      scenarios: { type: "string" },
      requests: { type: "string", default: "2000000" },
      json: { type: "string", default: `${root}/bench/results/latest.json` },
      smoke: { type: "boolean", default: false },
      "cpu-prof": { type: "string" },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  if (values.help) return "help";
  const listed = values.scenarios?.split(",").map((name) => name.trim()) ?? null;
  for (const name of listed ?? [])
    if (!(SCENARIOS as readonly string[]).includes(name))
      throw new Error(`--scenarios: unknown scenario "${name}" (known: ${SCENARIOS.join(", ")})`);
  const chosen = (listed as Scenario[] | null) ?? (values.smoke ? SMOKE_SCENARIOS : SCENARIOS);
  return {
    durationSeconds: positive("duration", values.duration, true),
    pairs: positive("pairs", values.pairs),
    scenarios: SCENARIOS.filter((name) => chosen.includes(name)),
    memoryRequests: positive("requests", values.requests),
    jsonFile: values.json,
    smoke: values.smoke,
    cpuProfDir: values["cpu-prof"] === undefined ? null : resolve(values["cpu-prof"]),
  };
}
