import { createServer, type ServerResponse } from "node:http";
import type { LookupFunction } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import {
  createGuardedSend,
  createRetryingExchange,
  type OutboundRequest,
  resolvingTo,
} from "../src/index.js";

// A server on this machine counting what reaches it. Outside names are "resolved" by a stub, so
// nothing is ever sent off this machine: a refused address is refused at lookup, before any connect.
let hits = 0;
let answer: (response: ServerResponse) => void = (response) => response.end("{}");
const server = createServer((_request, response) => {
  hits++;
  answer(response);
});
await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
const port = (server.address() as { port: number }).port;
afterAll(() => new Promise((resolve) => server.close(resolve)));

const SETTING = "TEST_ALLOW_LOCAL=on";
const strict = (lookup?: LookupFunction) =>
  createGuardedSend({ policy: { allowLocal: false }, setting: SETTING, ...(lookup ? { lookup } : {}) });
const local = (lookup?: LookupFunction) =>
  createGuardedSend({ policy: { allowLocal: true }, setting: SETTING, ...(lookup ? { lookup } : {}) });
const get = (url: string): OutboundRequest => ({
  method: "GET",
  url,
  headers: {},
  timeoutMs: 2_000,
  maxBodyBytes: 1024,
});

describe("the guard refuses, and nothing reaches the server", () => {
  it("plain http to a public name, with or without the development setting", async () => {
    const before = hits;
    for (const send of [strict(resolvingTo("127.0.0.1")), local(resolvingTo("127.0.0.1"))]) {
      const result = await send(get(`http://api.example.com:${port}/`));
      expect(result).toMatchObject({ kind: "failed", failure: "refused" });
      expect(result.kind === "failed" && result.detail).toContain(SETTING);
    }
    expect(hits).toBe(before);
  });

  it("loopback without the development setting, by address or by name", async () => {
    const before = hits;
    for (const url of [
      `http://127.0.0.1:${port}/`,
      `https://127.0.0.1:${port}/`,
      `https://localhost:${port}/`,
    ])
      expect(await strict()(get(url)), url).toMatchObject({ kind: "failed", failure: "refused" });
    expect(hits).toBe(before);
  });

  it("the cloud metadata address, written or after DNS, even with the development setting", async () => {
    const written = await local()(get("https://169.254.169.254/latest/meta-data/"));
    expect(written).toMatchObject({ kind: "failed", failure: "refused" });
    expect(written.kind === "failed" && written.detail).toMatch(/linkLocal/);
    const resolved = await local(resolvingTo("169.254.169.254"))(get(`https://api.example.com:${port}/`));
    expect(resolved).toMatchObject({ kind: "failed", failure: "refused" });
  });

  it("a public name that resolves to a private or loopback address", async () => {
    const before = hits;
    for (const address of ["10.1.2.3", "192.168.0.7", "172.16.3.4", "fd00::1", "127.0.0.1", "::1"]) {
      const result = await strict(resolvingTo(address))(get(`https://api.example.com:${port}/`));
      expect(result, address).toMatchObject({ kind: "failed", failure: "refused" });
      expect(result.kind === "failed" && result.detail, address).toMatch(/is not allowed/);
    }
    expect(hits).toBe(before);
  });
});

describe("what reaches a server is bounded", () => {
  // A caller that would retry anything retryable up to three times: the refusals below are final.
  const exchange = createRetryingExchange(local(), {
    timeoutMs: 300,
    maxRetries: 3,
    backoffMs: 1,
    maxBodyBytes: 64 * 1024,
    secrets: ["s3cret"],
  });
  const call = () =>
    exchange("Test GET /x", { method: "GET", url: `http://127.0.0.1:${port}/x?key=s3cret`, headers: {} });

  it("a redirect is not followed (nor retried)", async () => {
    const before = hits;
    answer = (response) => response.writeHead(302, { location: `http://127.0.0.1:${port}/elsewhere` }).end();
    expect(await call()).toEqual({
      ok: false,
      message: "Test GET /x: answered with a redirect (HTTP 302), which is never followed",
    });
    expect(hits).toBe(before + 1);
  });

  it("an oversized answer is cut off after the bound (and not asked again)", async () => {
    const before = hits;
    answer = (response) => response.end("x".repeat(200 * 1024));
    expect(await call()).toEqual({
      ok: false,
      message: "Test GET /x: an answer over 65536 bytes; not sent or not read",
    });
    expect(hits).toBe(before + 1);
  });

  it("a slow answer — no headers, or a body that trickles — is abandoned after the timeout", async () => {
    answer = () => {}; // never answers
    const started = Date.now();
    expect(await call()).toEqual({ ok: false, message: "Test GET /x: no answer within 300 ms" });
    expect(Date.now() - started).toBeLessThan(4 * 300 + 3 * 8 + 1_000);
    answer = (response) => {
      response.writeHead(200, { "content-type": "application/json" });
      const drip = setInterval(() => (response.destroyed ? clearInterval(drip) : response.write(" ")), 50);
    };
    expect(await call()).toEqual({ ok: false, message: "Test GET /x: no answer within 300 ms" });
    answer = (response) => response.end("{}");
  });

  it("a 503 is retried and the final answer read; a network error never carries a secret", async () => {
    let calls = 0;
    answer = (response) => (++calls === 1 ? response.writeHead(503).end() : response.end('{"a":1}'));
    expect(await call()).toEqual({ ok: true, status: 200, body: { a: 1 } });
    const refused = createRetryingExchange(local(), {
      timeoutMs: 300,
      maxRetries: 1,
      backoffMs: 1,
      secrets: ["s3cret"],
    });
    const result = await refused("Test", { method: "GET", url: "http://127.0.0.1:1/s3cret", headers: {} });
    expect(result).toEqual({ ok: false, message: "Test: the request failed on the network (ECONNREFUSED)" });
    answer = (response) => response.end("{}");
  });
});
