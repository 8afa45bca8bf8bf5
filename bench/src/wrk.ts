import { execFile, execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import type { LoadFigures, LoadShape } from "./load-shape.js";

const run = promisify(execFile);

function installed(): boolean {
  try {
    execFileSync("wrk", ["--version"], { stdio: "ignore" });
    return true;
  } catch (error) {
    // `wrk --version` prints its version and exits 1: only a missing binary is ENOENT.
    return (error as NodeJS.ErrnoException).code !== "ENOENT";
  }
}

/**
 * wrk (Debian package `wrk`), installed with apt-get when it is missing and this process is root.
 * Returns why it cannot be had, or null when it is there.
 */
export function ensureWrk(log: (line: string) => void): string | null {
  if (installed()) return null;
  if (process.getuid?.() !== 0) return "wrk is not installed (apt-get install wrk) and this is not root";
  log("wrk is missing: apt-get install -y wrk");
  try {
    execFileSync("apt-get", ["install", "-y", "-qq", "wrk"], {
      stdio: ["ignore", "ignore", "inherit"],
      env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
    });
  } catch {
    return "apt-get install wrk failed";
  }
  return installed() ? null : "wrk is still missing after apt-get install";
}

/**
 * The request script: every request the same body, with a new Idempotency-Key each (a create) or the
 * one fixed key (a replay). `wrk.format` with a headers table replaces `wrk.headers`, so they are copied.
 */
function luaScript(shape: LoadShape): string {
  const base = `wrk.method = "POST"
wrk.path = ${JSON.stringify(shape.path)}
wrk.body = ${JSON.stringify(shape.body)}
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Authorization"] = ${JSON.stringify(`Bearer ${shape.apiKey}`)}
`;
  if (shape.fixedKey !== null)
    return `${base}wrk.headers["Idempotency-Key"] = ${JSON.stringify(shape.fixedKey)}\n`;
  return `${base}local counter = 0
local prefix = "bench-" .. tostring(os.time()) .. "-" .. tostring(math.random(1, 1e9)) .. "-"
request = function()
  counter = counter + 1
  local headers = {}
  for name, value in pairs(wrk.headers) do headers[name] = value end
  headers["Idempotency-Key"] = prefix .. counter
  return wrk.format(nil, nil, headers)
end
`;
}

const UNIT_MS: Readonly<Record<string, number>> = { us: 0.001, ms: 1, s: 1000 };

function latencyMs(output: string, percentile: string): number {
  const match = new RegExp(`^\\s+${percentile}%\\s+([\\d.]+)(us|ms|s)$`, "m").exec(output);
  return match === null ? Number.NaN : Number(match[1]) * (UNIT_MS[match[2] as string] ?? Number.NaN);
}

/** Parses wrk's `--latency` report. Exported for its test. */
export function parseWrkOutput(output: string): LoadFigures {
  const total = /(\d+) requests in ([\d.]+)(us|ms|s|m),/.exec(output);
  if (total === null) throw new Error(`cannot read wrk's report:\n${output}`);
  const seconds = Number(total[2]) * ({ us: 1e-6, ms: 1e-3, s: 1, m: 60 }[total[3] as string] ?? Number.NaN);
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(output);
  const errors = socket === null ? 0 : socket.slice(1).reduce((sum, count) => sum + Number(count), 0);
  return {
    completed: Number(total[1]),
    seconds,
    p50Ms: latencyMs(output, "50"),
    p99Ms: latencyMs(output, "99"),
    non2xx: Number(/Non-2xx or 3xx responses: (\d+)/.exec(output)?.[1] ?? 0),
    errors,
  };
}

/** One wrk run: one thread, `connections` connections, on the given CPU core when `core` is set. */
export async function runWrk(
  url: string,
  shape: LoadShape,
  options: { seconds: number; connections: number; core: number | null; workDir: string },
): Promise<LoadFigures> {
  const script = join(options.workDir, `wrk-${process.pid}-${Date.now()}.lua`);
  writeFileSync(script, luaScript(shape));
  const wrk = [
    "wrk",
    "-t1",
    `-c${options.connections}`,
    `-d${options.seconds}s`,
    "--latency",
    "-s",
    script,
    url,
  ];
  const [command, ...args] = options.core === null ? wrk : ["taskset", "-c", String(options.core), ...wrk];
  const { stdout } = await run(command as string, args, { encoding: "utf8" });
  return parseWrkOutput(stdout);
}
