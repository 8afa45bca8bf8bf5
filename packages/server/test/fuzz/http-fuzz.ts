import type { AddressInfo } from "node:net";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import type { Storage } from "@kopek/core";
import fc from "fast-check";
import { buildTestApp, invoiceBody, json, subscriptionBody, uniqueMethodRef } from "../helper.js";
import { recordMethodRef } from "../test-artifacts.js";
import { PLANTED_SECRETS, requestArbitrary } from "./arbitraries.js";
import { type RawResponse, rawRequest } from "./raw-http.js";

export interface FuzzOptions {
  readonly runs: number;
  readonly seed?: number;
  /** How much the resident set may grow over the run. */
  readonly rssBoundBytes?: number;
  /** The storage under the server: fresh memory storage when not given. */
  readonly storage?: Storage;
}

export interface FuzzFigures {
  readonly runs: number;
  readonly seed: number;
  readonly statuses: Readonly<Record<number, number>>;
  readonly serverErrors: number;
  readonly rssBeforeBytes: number;
  readonly rssAfterBytes: number;
  /** The JavaScript heap in use after a full collection, before and after. */
  readonly heapBeforeBytes: number;
  readonly heapAfterBytes: number;
  readonly durationMs: number;
}

/** How much the resident set may grow over a run: the memory storage keeps what the run created. */
export const DEFAULT_RSS_BOUND_BYTES = 256 * 2 ** 20;
/** How much live heap may remain after a full collection: the few resources created, nothing per request. */
export const HEAP_BOUND_BYTES = 64 * 2 ** 20;

/** `gc()` even without --expose-gc, so the figures measure what is still reachable. */
function garbageCollector(): () => void {
  setFlagsFromString("--expose-gc");
  const gc = runInNewContext("gc") as () => void;
  return () => gc();
}

const PROBLEM_FIELDS = ["type", "title", "status", "code", "detail", "requestId"] as const;

/** Why an answer breaks the contract (docs/reliability.md), or null when it is fine. */
export function contractViolation(response: RawResponse | null, method: string): string | null {
  if (response === null) return "the connection ended without an answer";
  if (!(response.status >= 100 && response.status < 500)) return `status ${response.status}`;
  if (response.headers["x-powered-by"] !== undefined) return "X-Powered-By is set";
  if (response.headers["x-content-type-options"] !== "nosniff") return "no X-Content-Type-Options: nosniff";
  if (response.status < 400 || method === "HEAD") return null;
  if (response.headers["content-type"] !== "application/problem+json")
    return `a ${response.status} as ${response.headers["content-type"]}`;
  let problem: Record<string, unknown>;
  try {
    problem = JSON.parse(response.body) as Record<string, unknown>;
  } catch {
    return "a problem body that is not JSON";
  }
  for (const field of PROBLEM_FIELDS) {
    const want = field === "status" ? "number" : "string";
    if (typeof problem[field] !== want) return `problem.${field} is not a ${want}`;
  }
  if (problem.status !== response.status) return `problem.status ${problem.status} ≠ HTTP ${response.status}`;
  if (problem.type !== `urn:kopek:problem:${problem.code}`) return `problem.type ${problem.type}`;
  if (/\n\s+at |\/work\/|node_modules|SELECT |INSERT /.test(response.body))
    return "a stack, path or SQL in a problem";
  return null;
}

/**
 * The fuzz property over real HTTP: a server on port 0 (memory storage unless `options.storage`,
 * sandbox provider), `runs`
 * adversarial requests, each answered below 500 with a well-formed problem for every 4xx; then the
 * server still answers /healthz, no prototype was polluted, and the resident set grew within bound.
 */
export async function runHttpFuzz(options: FuzzOptions): Promise<FuzzFigures> {
  const seed = options.seed ?? Date.now() % 2 ** 31;
  const t = await buildTestApp(options.storage === undefined ? {} : { storage: options.storage });
  await t.app.listen({ port: 0, host: "127.0.0.1" });
  const { port } = t.app.server.address() as AddressInfo;
  const statuses: Record<number, number> = {};
  const started = Date.now();
  try {
    const sub = subscriptionBody({ providerMethodRef: uniqueMethodRef("pm_fuzz_target") });
    recordMethodRef(sub.providerMethodRef);
    const targets = {
      apiKey: t.apiKey,
      subscriptionId: json(await t.post("/v1/subscriptions", sub)).id as string,
      invoiceId: json(await t.post("/v1/invoices", invoiceBody())).id as string,
    };
    const collect = garbageCollector();
    // Warm up first, so what the JIT and the first allocations take is not counted as growth.
    for (let i = 0; i < 50; i++) await rawRequest(port, { method: "GET", path: "/healthz", headers: [] });
    collect();
    const { rss: rssBeforeBytes, heapUsed: heapBeforeBytes } = process.memoryUsage();
    await fc.assert(
      fc.asyncProperty(requestArbitrary(targets), async (request) => {
        const body = request.body ?? "";
        for (const ref of body.match(/pm_fuzz_[0-9a-f-]{36}/g) ?? []) recordMethodRef(ref);
        const response = await rawRequest(port, request);
        if (response !== null) statuses[response.status] = (statuses[response.status] ?? 0) + 1;
        const leaked = PLANTED_SECRETS.find((secret) => response?.body.includes(secret));
        if (leaked !== undefined)
          throw new Error(`a planted secret came back in a response: ${request.path}`);
        const violation = contractViolation(response, request.method);
        if (violation !== null) throw new Error(`${violation}; answer: ${response?.body.slice(0, 300)}`);
      }),
      { numRuns: options.runs, seed, endOnFailure: false },
    );
    const health = await rawRequest(port, { method: "GET", path: "/healthz", headers: [] });
    if (health?.status !== 200) throw new Error(`/healthz answered ${health?.status} after the fuzz run`);
    if ((Object.prototype as Record<string, unknown>).polluted !== undefined)
      throw new Error("Object.prototype was polluted");
    const log = t.logLines.join("");
    for (const secret of [...PLANTED_SECRETS, t.apiKey])
      if (log.includes(secret)) throw new Error("a planted secret or the API key reached the log");
    // The test helper keeps every log line for assertions: the harness's memory, not the server's.
    t.logLines.length = 0;
    collect();
    const { rss: rssAfterBytes, heapUsed: heapAfterBytes } = process.memoryUsage();
    const bound = options.rssBoundBytes ?? DEFAULT_RSS_BOUND_BYTES;
    if (rssAfterBytes - rssBeforeBytes > bound)
      throw new Error(`RSS grew by ${rssAfterBytes - rssBeforeBytes} bytes, more than ${bound}`);
    if (heapAfterBytes - heapBeforeBytes > HEAP_BOUND_BYTES)
      throw new Error(
        `the heap grew by ${heapAfterBytes - heapBeforeBytes} bytes, more than ${HEAP_BOUND_BYTES}`,
      );
    const serverErrors = Object.entries(statuses)
      .filter(([status]) => Number(status) >= 500)
      .reduce((sum, [, n]) => sum + n, 0);
    return {
      runs: options.runs,
      seed,
      statuses,
      serverErrors,
      rssBeforeBytes,
      rssAfterBytes,
      heapBeforeBytes,
      heapAfterBytes,
      durationMs: Date.now() - started,
    };
  } finally {
    await t.app.close();
  }
}

/** One line of figures for the test output and docs/reliability.md. */
export function describeFigures(f: FuzzFigures): string {
  const mb = (bytes: number) => (bytes / 2 ** 20).toFixed(1);
  const byStatus = Object.entries(f.statuses)
    .map(([status, n]) => `${status}×${n}`)
    .join(" ");
  return (
    `fuzz: ${f.runs} cases (seed ${f.seed}) in ${(f.durationMs / 1000).toFixed(1)} s, 5xx ${f.serverErrors}; ` +
    `RSS ${mb(f.rssBeforeBytes)} → ${mb(f.rssAfterBytes)} MiB, heap ${mb(f.heapBeforeBytes)} → ${mb(f.heapAfterBytes)} MiB; ` +
    `statuses ${byStatus}`
  );
}
