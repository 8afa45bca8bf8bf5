import { request } from "node:http";
import { generateApiKey } from "@kopek/core";
import { afterAll, describe, expect, it } from "vitest";
import { createRateLimits } from "../src/limits/rate-limits.js";
import { startServer } from "../src/main.js";
import { loadConfig } from "../src/startup/config.js";
import { buildTestApp, json, type TestApp } from "./helper.js";

const limits = await createRateLimits(
  { kind: "memory" },
  { perKeyPerSecond: 0, failedAuthPerIpPerMinute: 5, publicPerIpPerMinute: 8 },
);
const t: TestApp = await buildTestApp({ rateLimits: limits });
afterAll(() => t.app.close());

const get = (url: string, remoteAddress: string, authorization?: string) =>
  t.app.inject({
    method: "GET",
    url,
    remoteAddress,
    headers: authorization === undefined ? {} : { authorization },
  });

describe("per-IP limits without a valid key", () => {
  it("a flood of unknown keys from one IP gets 429 with Retry-After after the limit; other IPs do not", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      statuses.push((await get("/v1/invoices", "203.0.113.7", `Bearer ${generateApiKey()}`)).statusCode);
    }
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(statuses.filter((status) => status === 401).length).toBeLessThanOrEqual(6);
    expect(statuses.slice(-5)).toEqual([429, 429, 429, 429, 429]);
    const refused = await get("/v1/invoices", "203.0.113.7", `Bearer ${t.apiKey}`);
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers["retry-after"])).toBeGreaterThanOrEqual(1);
    expect(Number(refused.headers["retry-after"])).toBeLessThanOrEqual(60);
    expect(json(refused).code).toBe("rate_limited");
    expect(refused.headers["x-request-id"]).toBeTruthy();
    expect((await get("/v1/invoices", "198.51.100.1", `Bearer ${t.apiKey}`)).statusCode).toBe(200);
  });

  it("the payment page and provider notifications are limited per IP; health never is", async () => {
    const statuses: number[] = [];
    for (const url of ["/pay/unknown", "/pay/x", "/pay/y", "/pay/z", "/pay/a", "/pay/b", "/pay/c"])
      statuses.push((await get(url, "192.0.2.9")).statusCode);
    statuses.push(
      (
        await t.app.inject({
          method: "POST",
          url: "/provider-events/x/y",
          remoteAddress: "192.0.2.9",
          payload: {},
        })
      ).statusCode,
    );
    expect(statuses).not.toContain(429);
    const over = await get("/pay/unknown", "192.0.2.9");
    expect(over.statusCode).toBe(429);
    expect(over.headers["retry-after"]).toMatch(/^[1-9][0-9]*$/);
    // A load balancer probing from the same address, far past the limit, is still answered.
    for (let i = 0; i < 20; i++) {
      expect((await get("/healthz", "192.0.2.9")).statusCode).toBe(200);
      expect((await get("/readyz", "192.0.2.9")).statusCode).toBe(200);
    }
    expect((await get("/pay/unknown", "192.0.2.10")).statusCode).toBe(404);
  });

  it("an IPv6 client is limited per /64: other addresses of its /64 share the bucket, IPv4-mapped counts as IPv4", async () => {
    const statuses: number[] = [];
    for (let i = 1; i <= 8; i++)
      statuses.push((await get("/pay/unknown", `2001:db8:7:7::${i.toString(16)}`)).statusCode);
    expect(statuses).not.toContain(429);
    expect((await get("/pay/unknown", "2001:db8:7:7:ffff:1:2:3")).statusCode).toBe(429);
    expect((await get("/pay/unknown", "2001:db8:7:8::1")).statusCode).toBe(404);

    for (let i = 0; i < 8; i++) await get("/pay/unknown", "198.51.100.77");
    expect((await get("/pay/unknown", "::ffff:198.51.100.77")).statusCode).toBe(429);
  });
});

describe("the per-key limit counts the key", () => {
  it("however the Authorization header writes the scheme and spaces, one key is one bucket", async () => {
    const keyed = await buildTestApp({
      rateLimits: await createRateLimits(
        { kind: "memory" },
        { perKeyPerSecond: 4, failedAuthPerIpPerMinute: 0, publicPerIpPerMinute: 0 },
      ),
    });
    try {
      const spellings = [
        `Bearer ${keyed.apiKey}`,
        `bEaRer ${keyed.apiKey}`,
        `bearer    ${keyed.apiKey}`,
        ` BEARER\t${keyed.apiKey}  `,
        `Bearer  ${keyed.apiKey}`,
      ];
      const statuses: number[] = [];
      for (const authorization of spellings)
        statuses.push(
          (await keyed.app.inject({ method: "GET", url: "/v1/invoices", headers: { authorization } }))
            .statusCode,
        );
      expect(statuses).toEqual([200, 200, 200, 200, 429]);
    } finally {
      await keyed.app.close();
    }
  });
});

/** GET over real HTTP from 127.0.0.1, with an X-Forwarded-For header. */
function getForwarded(port: number, path: string, forwardedFor: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const sent = request(
      { host: "127.0.0.1", port, path, headers: { "x-forwarded-for": forwardedFor } },
      (response) => {
        response.resume();
        response.on("end", () => resolve(response.statusCode ?? 0));
      },
    );
    sent.on("error", reject);
    sent.end();
  });
}

describe("per-IP limits behind a proxy (KOPEK_TRUST_PROXY)", () => {
  const listening = async (trustProxy?: readonly string[]) => {
    const app = await buildTestApp({
      rateLimits: await createRateLimits(
        { kind: "memory" },
        { perKeyPerSecond: 0, failedAuthPerIpPerMinute: 0, publicPerIpPerMinute: 3 },
      ),
      ...(trustProxy === undefined ? {} : { trustProxy }),
    });
    await app.app.listen({ host: "127.0.0.1", port: 0 });
    return { app, port: (app.app.server.address() as { port: number }).port };
  };

  it("from a trusted proxy, each client in X-Forwarded-For has its own bucket", async () => {
    const { app, port } = await listening(["127.0.0.1/32"]);
    try {
      for (let i = 0; i < 3; i++) expect(await getForwarded(port, "/pay/x", "203.0.113.1")).toBe(404);
      expect(await getForwarded(port, "/pay/x", "203.0.113.1")).toBe(429);
      // Another client behind the same proxy is not locked out by the first.
      expect(await getForwarded(port, "/pay/x", "203.0.113.2")).toBe(404);
      // A client cannot escape by prepending addresses: the proxy appends the real one last.
      expect(await getForwarded(port, "/pay/x", "198.51.100.9, 203.0.113.1")).toBe(429);
    } finally {
      await app.app.close();
    }
  });

  it("from an untrusted peer, X-Forwarded-For is ignored: a client cannot spoof fresh buckets", async () => {
    const { app, port } = await listening();
    try {
      const statuses: number[] = [];
      for (let i = 1; i <= 5; i++) statuses.push(await getForwarded(port, "/pay/x", `203.0.113.${i}`));
      expect(statuses).toEqual([404, 404, 404, 429, 429]);
    } finally {
      await app.app.close();
    }
  });
});

describe("KOPEK_TRUST_PROXY reaches a started server", () => {
  it("kopek serve with KOPEK_TRUST_PROXY=127.0.0.1 limits each forwarded client on its own", async () => {
    const config = loadConfig({
      PORT: "0",
      LOG_LEVEL: "silent",
      KOPEK_WORKER: "off",
      KOPEK_RATE_LIMIT_PUBLIC: "2",
      KOPEK_TRUST_PROXY: "127.0.0.1",
    })._unsafeUnwrap();
    const server = (await startServer(config, () => {}))._unsafeUnwrap();
    try {
      const port = Number(new URL(server.url).port);
      expect(await getForwarded(port, "/pay/x", "2001:db8:5::1")).toBe(404);
      expect(await getForwarded(port, "/pay/x", "2001:db8:5::2")).toBe(404);
      expect(await getForwarded(port, "/pay/x", "2001:db8:5::3")).toBe(429); // same /64
      expect(await getForwarded(port, "/pay/x", "203.0.113.50")).toBe(404);
      expect(await getForwarded(port, "/healthz", "2001:db8:5::3")).toBe(200);
    } finally {
      await server.close();
    }
  });
});
