import { generateApiKey } from "@kopek/core";
import { afterAll, describe, expect, it } from "vitest";
import { createRateLimits } from "../src/limits/rate-limits.js";
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

  it("the payment page, provider notifications and health are limited per IP", async () => {
    const statuses: number[] = [];
    for (const url of ["/healthz", "/readyz", "/pay/unknown", "/healthz", "/readyz", "/pay/x", "/healthz"])
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
    const over = await get("/healthz", "192.0.2.9");
    expect(over.statusCode).toBe(429);
    expect(over.headers["retry-after"]).toMatch(/^[1-9][0-9]*$/);
    expect((await get("/healthz", "192.0.2.10")).statusCode).toBe(200);
  });
});
