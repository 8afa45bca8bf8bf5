import { randomUUID } from "node:crypto";
import autocannon, { type Result as LoadResult } from "autocannon";
import { cpuMicros } from "./children.js";
import { runClosedLoop } from "./closed-loop.js";
import type { LoadFigures, LoadShape } from "./load-shape.js";
import type { Server } from "./servers.js";
import { runWrk } from "./wrk.js";

export const CONNECTIONS = 50;

/** The C load generator of a pinned run. */
export type LoadClient = "wrk" | "closed-loop";

/** One run of load against one server. */
export interface RunResult {
  readonly side: Server["name"];
  readonly reqPerSec: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  /** Server CPU (user + system) per completed request. */
  readonly cpuMicrosPerRequest: number;
  readonly completed: number;
  readonly non2xx: number;
  readonly errors: number;
  /** The server exited during the load (its stderr file says why). */
  readonly died: boolean;
  /** False when any request failed: its figures are not comparable. */
  readonly valid: boolean;
  /** The slowest of the connections' first answers, ms (the closed-loop client only). */
  readonly firstAnswerMaxMs?: number;
}

export interface LoadLimit {
  readonly durationSeconds?: number;
  readonly amount?: number;
  /** Called as each request is built (the memory scenario counts them; autocannon only). */
  readonly onRequest?: (sent: number) => void;
  /**
   * Load from a C client instead of autocannon (timed runs only), pinned to `core` when it is a
   * number: wrk, or with `client: "closed-loop"` the closed-loop client (closed-loop.ts).
   */
  readonly pinned?: { readonly core: number | null; readonly workDir: string; readonly client?: LoadClient };
}

/** Runs the load (a C client when `limit.pinned` says so, else autocannon) and reads the server's CPU time. */
export async function runLoad(server: Server, shape: LoadShape, limit: LoadLimit): Promise<RunResult> {
  const cpuBefore = cpuMicros(server.child.pid);
  const figures =
    limit.pinned !== undefined && limit.durationSeconds !== undefined
      ? await runPinned(server, shape, limit.durationSeconds, limit.pinned)
      : await runAutocannon(server, shape, limit);
  const died = server.child.process.exitCode !== null || server.child.process.signalCode !== null;
  const cpuUsed = cpuMicros(server.child.pid) - cpuBefore;
  const { completed, non2xx, errors } = figures;
  return {
    side: server.name,
    reqPerSec: completed / figures.seconds,
    p50Ms: figures.p50Ms,
    p99Ms: figures.p99Ms,
    cpuMicrosPerRequest: completed > 0 ? cpuUsed / completed : Number.NaN,
    completed,
    non2xx,
    errors,
    died,
    valid: !died && non2xx === 0 && errors === 0 && completed > 0,
    ...(figures.firstAnswerMaxMs === undefined ? {} : { firstAnswerMaxMs: figures.firstAnswerMaxMs }),
  };
}

/** The C client's runs are whole seconds. A server that dies mid-run makes its requests fail. */
function runPinned(
  server: Server,
  shape: LoadShape,
  seconds: number,
  pinned: NonNullable<LoadLimit["pinned"]>,
): Promise<LoadFigures> {
  const options = { seconds: Math.max(1, Math.round(seconds)), connections: CONNECTIONS, ...pinned };
  return pinned.client === "closed-loop"
    ? runClosedLoop(server.url, shape, options)
    : runWrk(server.url, shape, options);
}

/** autocannon, in this process, against a server (a child process). */
async function runAutocannon(server: Server, shape: LoadShape, limit: LoadLimit): Promise<LoadFigures> {
  const headers = {
    authorization: `Bearer ${shape.apiKey}`,
    "content-type": "application/json",
    "idempotency-key": shape.fixedKey ?? "unset",
  };
  const prefix = `bench-${randomUUID()}-`;
  let sent = 0;
  const setupRequest = (request: { headers?: Record<string, string> }) => {
    sent += 1;
    limit.onRequest?.(sent);
    if (shape.fixedKey !== null) return request;
    return { ...request, headers: { ...request.headers, "idempotency-key": `${prefix}${sent}` } };
  };
  const result = await new Promise<LoadResult>((resolve, reject) => {
    const instance = autocannon(
      {
        url: server.url,
        connections: CONNECTIONS,
        // autocannon notices the end of a run only when it samples; every 100 ms keeps short runs short.
        sampleInt: 100,
        ...(limit.amount === undefined
          ? { duration: limit.durationSeconds ?? 10 }
          : { amount: limit.amount }),
        requests: [{ method: "POST", path: shape.path, headers, body: shape.body, setupRequest }],
      },
      (error, value) => (error ? reject(error) : resolve(value)),
    );
    // A server that dies mid-run (out of memory, a crash) ends the run; its errors make it invalid.
    void server.child.exited.then(() => instance.stop());
  });
  return {
    completed: result.requests.total,
    seconds: result.duration,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}
