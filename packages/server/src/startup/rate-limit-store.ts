import { Redis } from "ioredis";
import type { Logger } from "pino";
import { createRateLimits, type RateLimitStore, type RateLimits } from "../limits/rate-limits.js";
import type { Config } from "./config.js";
import type { OpenedStorage } from "./storage.js";

// How long start waits for Redis before limiting in memory until it answers.
const REDIS_READY_TIMEOUT_MS = 5000;

/**
 * The server's rate limits on the store its instances share: Redis when REDIS_URL is set, else the
 * PostgreSQL database when the server runs on one, else this process's memory.
 */
export async function openRateLimits(
  config: Config,
  opened: OpenedStorage,
  logger: Logger,
): Promise<{ limits: RateLimits; kind: RateLimitStore["kind"]; close(): Promise<void> }> {
  const settings = {
    perKeyPerSecond: config.rateLimitPerSecond,
    failedAuthPerIpPerMinute: config.failedAuthPerIpPerMinute,
    publicPerIpPerMinute: config.publicPerIpPerMinute,
  };
  if (config.redisUrl !== null) {
    // No offline queue: while Redis is away a count fails at once and the memory insurance limits.
    const client = new Redis(config.redisUrl, { enableOfflineQueue: false, lazyConnect: true });
    client.on("error", (cause: Error) => logger.warn({ code: codeOf(cause) }, "Redis (rate limits) error"));
    await Promise.race([
      client.connect().catch(() => {}),
      new Promise((resolve) => setTimeout(resolve, REDIS_READY_TIMEOUT_MS).unref()),
    ]);
    const limits = await createRateLimits({ kind: "redis", client }, settings);
    return { limits, kind: "redis", close: async () => void (await client.quit().catch(() => {})) };
  }
  if (opened.pool !== null) {
    const limits = await createRateLimits({ kind: "postgres", pool: opened.pool }, settings);
    return { limits, kind: "postgres", close: async () => {} };
  }
  return {
    limits: await createRateLimits({ kind: "memory" }, settings),
    kind: "memory",
    close: async () => {},
  };
}

// The error's code only: its message may carry the URL, and with it a password.
const codeOf = (cause: Error) => (cause as NodeJS.ErrnoException).code ?? cause.name;
