// The closed-loop client (closed-loop-client.c): built with the machine's C compiler on first use, run
// pinned as wrk is. wrk corrects its latency histogram for coordinated omission after each run (a slow
// request counts once per mean interval it lasted); this client records each request once, and its
// figures agree with a capture of the loopback (docs/performance.md, "The create's tail on the wire").
import { execFile, execFileSync } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import type { LoadFigures, LoadShape } from "./load-shape.js";

const run = promisify(execFile);
const SOURCE = resolve(import.meta.dirname, "closed-loop-client.c");

/** Builds the client into `workDir` (once); throws with the compiler's reason when it cannot. */
function build(workDir: string): string {
  const binary = join(workDir, "closed-loop-client");
  if (!existsSync(binary))
    execFileSync("cc", ["-O2", "-o", binary, SOURCE], { stdio: ["ignore", "ignore", "pipe"] });
  return binary;
}

/** Parses the client's one line of figures. Exported for its test. */
export function parseClosedLoopOutput(output: string): LoadFigures {
  const line = /^closed-loop: (.*)$/m.exec(output)?.[1];
  if (line === undefined) throw new Error(`cannot read the closed-loop client's report:\n${output}`);
  const figures = new Map(line.split(" ").map((pair) => pair.split("=") as [string, string]));
  const figure = (name: string) => {
    const value = Number(figures.get(name));
    if (figures.get(name) === undefined || !Number.isFinite(value))
      throw new Error(`the closed-loop client's report has no ${name}:\n${output}`);
    return value;
  };
  return {
    completed: figure("completed"),
    seconds: figure("seconds"),
    p50Ms: figure("p50"),
    p99Ms: figure("p99"),
    non2xx: figure("non2xx"),
    errors: 0,
    firstAnswerMaxMs: figure("firstmax"),
  };
}

/** One run: `connections` connections to the server at `url` (on 127.0.0.1), on `core` when set. */
export async function runClosedLoop(
  url: string,
  shape: LoadShape,
  options: { seconds: number; connections: number; core: number | null; workDir: string },
): Promise<LoadFigures> {
  const binary = build(options.workDir);
  const { hostname, port } = new URL(url);
  if (hostname !== "127.0.0.1")
    throw new Error(`the closed-loop client talks to 127.0.0.1 only, not ${hostname}`);
  const head = join(options.workDir, "closed-loop-head");
  const body = join(options.workDir, "closed-loop-body");
  writeFileSync(
    head,
    `POST ${shape.path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAuthorization: Bearer ${shape.apiKey}\r\n`,
  );
  writeFileSync(body, shape.body);
  const client = [
    binary,
    port,
    String(options.connections),
    String(options.seconds),
    head,
    body,
    ...(shape.fixedKey === null ? [] : [shape.fixedKey]),
  ];
  const [command, ...args] =
    options.core === null ? client : ["taskset", "-c", String(options.core), ...client];
  try {
    const { stdout } = await run(command as string, args, { encoding: "utf8" });
    return parseClosedLoopOutput(stdout);
  } catch (cause) {
    // The client stops at the first failed connection, read or write (a server that died): an invalid run.
    const reason = (cause as { stderr?: string }).stderr?.trim() || String(cause);
    process.stderr.write(`bench: the closed-loop client failed: ${reason}\n`);
    return {
      completed: 0,
      seconds: options.seconds,
      p50Ms: Number.NaN,
      p99Ms: Number.NaN,
      non2xx: 0,
      errors: 1,
    };
  }
}
