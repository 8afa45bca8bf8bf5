import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseClosedLoopOutput, runClosedLoop } from "./closed-loop.js";

// The client is built with the machine's C compiler; without one there is nothing to run.
const hasCompiler = (() => {
  try {
    execFileSync("cc", ["--version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
})();
const workDir = mkdtempSync(join(tmpdir(), "kopek-closed-loop-test-"));
const keys: string[] = [];
let status = 201;
let server: Server;
let url: string;

const bodyOf = (request: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let text = "";
    request.on("data", (chunk) => (text += chunk)).on("end", () => resolve(text));
  });

beforeAll(async () => {
  server = createServer(async (request, response) => {
    const body = await bodyOf(request);
    keys.push(String(request.headers["idempotency-key"]));
    const answer = JSON.stringify({ path: request.url, authorization: request.headers.authorization, body });
    response.writeHead(status, {
      "content-type": "application/json",
      "content-length": Buffer.byteLength(answer),
    });
    response.end(answer);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  rmSync(workDir, { recursive: true, force: true });
});

const shape = (fixedKey: string | null) => ({
  path: "/v1/invoices",
  body: '{"a":1}',
  apiKey: "sk_test",
  fixedKey,
});

describe.skipIf(!hasCompiler)("the closed-loop client", () => {
  it("is built with cc, loads the server for the run's seconds and counts its answers", async () => {
    keys.length = 0;
    status = 201;
    const figures = await runClosedLoop(url, shape(null), {
      seconds: 1,
      connections: 4,
      core: null,
      workDir,
    });
    expect(figures.completed).toBeGreaterThan(100);
    expect(figures.completed).toBeLessThanOrEqual(keys.length);
    expect(figures.seconds).toBeGreaterThanOrEqual(1);
    expect(figures.p50Ms).toBeGreaterThan(0);
    expect(figures.p99Ms).toBeGreaterThanOrEqual(figures.p50Ms);
    expect(figures).toMatchObject({ non2xx: 0, errors: 0 });
    // Each connection's first answer came, and within the run.
    expect(figures.firstAnswerMaxMs).toBeGreaterThan(0);
    expect(figures.firstAnswerMaxMs).toBeLessThan(1000);
    // A new Idempotency-Key per request.
    expect(new Set(keys).size).toBe(keys.length);
  });

  it("sends one key on every request for a replay, and counts answers that are not 2xx", async () => {
    keys.length = 0;
    status = 409;
    const figures = await runClosedLoop(url, shape("replay-key"), {
      seconds: 1,
      connections: 2,
      core: null,
      workDir,
    });
    expect(new Set(keys)).toEqual(new Set(["replay-key"]));
    expect(figures.non2xx).toBe(figures.completed);
    expect(figures.completed).toBeGreaterThan(0);
  });

  it("reports a run whose server is gone as failed, not as figures", async () => {
    const gone = "http://127.0.0.1:1";
    const figures = await runClosedLoop(gone, shape(null), {
      seconds: 1,
      connections: 2,
      core: null,
      workDir,
    });
    expect(figures).toMatchObject({ completed: 0, errors: 1 });
  });

  it("parses its report, and refuses one it cannot read", () => {
    const line =
      "closed-loop: completed=126925 seconds=10.001 p50=3.530 p90=5.160 p99=8.260 p99.5=9.440 p99.9=13.890 max=93.000 over50ms=9 non2xx=0 first50=4.100 firstmax=21.700\n";
    expect(parseClosedLoopOutput(line)).toEqual({
      completed: 126925,
      seconds: 10.001,
      p50Ms: 3.53,
      p99Ms: 8.26,
      non2xx: 0,
      errors: 0,
      firstAnswerMaxMs: 21.7,
    });
    expect(() => parseClosedLoopOutput("closed-loop: completed=1 seconds=1\n")).toThrow("has no p50");
    expect(() => parseClosedLoopOutput("nothing\n")).toThrow("cannot read");
  });
});
