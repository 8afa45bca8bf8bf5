import { randomUUID } from "node:crypto";
import autocannon, { type Result as LoadResult } from "autocannon";
import { cpuMicros } from "./children.js";
import type { Server } from "./servers.js";

export const CONNECTIONS = 50;

/** One request shape: the path, the body, and whether every request gets a fresh Idempotency-Key. */
export interface LoadShape {
  readonly path: string;
  readonly body: string;
  readonly apiKey: string;
  /** null: a new key per request; a string: that one key on every request (replays). */
  readonly fixedKey: string | null;
}

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
}

export interface LoadLimit {
  readonly durationSeconds?: number;
  readonly amount?: number;
  /** Called as each request is built (the memory scenario counts them). */
  readonly onRequest?: (sent: number) => void;
}

/** Runs autocannon (in this process) against a server (a child process) and reads its CPU time. */
export async function runLoad(server: Server, shape: LoadShape, limit: LoadLimit): Promise<RunResult> {
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
  const cpuBefore = cpuMicros(server.child.pid);
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
  const died = server.child.process.exitCode !== null || server.child.process.signalCode !== null;
  const cpuUsed = cpuMicros(server.child.pid) - cpuBefore;
  const completed = result.requests.total;
  return {
    side: server.name,
    reqPerSec: completed / result.duration,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    cpuMicrosPerRequest: completed > 0 ? cpuUsed / completed : Number.NaN,
    completed,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    died,
    valid: !died && result.non2xx === 0 && result.errors === 0 && result.timeouts === 0 && completed > 0,
  };
}
