import type { Redis } from "ioredis";
import type pg from "pg";
import {
  type IRateLimiterOptions,
  type RateLimiterAbstract,
  RateLimiterMemory,
  RateLimiterPostgres,
  RateLimiterRedis,
} from "rate-limiter-flexible";

/**
 * The server's three limits, each null when turned off (0). Counted by `rate-limiter-flexible`, in this
 * process's memory or — when the instances share one — in PostgreSQL or Redis, so that N instances
 * together allow the limit once, not N times.
 */
export interface RateLimits {
  /** API requests per API key per second (KOPEK_RATE_LIMIT). */
  readonly perKey: RateLimiterAbstract | null;
  /** Requests that fail authentication, per client IP per minute (KOPEK_RATE_LIMIT_UNAUTHENTICATED). */
  readonly failedAuthPerIp: RateLimiterAbstract | null;
  /** Requests to the public routes (page, notifications; never health), per IP per minute (KOPEK_RATE_LIMIT_PUBLIC). */
  readonly publicPerIp: RateLimiterAbstract | null;
}

export interface RateLimitSettings {
  readonly perKeyPerSecond: number;
  readonly failedAuthPerIpPerMinute: number;
  readonly publicPerIpPerMinute: number;
}

export {
  DEFAULT_FAILED_AUTH_PER_IP_PER_MINUTE,
  DEFAULT_PUBLIC_PER_IP_PER_MINUTE,
} from "./rate-limit-defaults.js";

/** Where the counters live: this process, or a store every instance shares. */
export type RateLimitStore =
  | { readonly kind: "memory" }
  | { readonly kind: "postgres"; readonly pool: pg.Pool }
  | { readonly kind: "redis"; readonly client: Redis };

/** The table `rate-limiter-flexible` creates and purges by itself (not one of Kopek's migrations). */
export const RATE_LIMIT_TABLE = "kopek_rate_limits";

/**
 * The limits on `store`. A shared store is insured by a memory limiter: while PostgreSQL or Redis does
 * not answer, each instance limits on its own rather than refusing or waving everything through.
 */
export async function createRateLimits(
  store: RateLimitStore,
  settings: RateLimitSettings,
): Promise<RateLimits> {
  const specs = [
    { keyPrefix: "kopek-key", points: settings.perKeyPerSecond, duration: 1 },
    { keyPrefix: "kopek-auth-ip", points: settings.failedAuthPerIpPerMinute, duration: 60 },
    { keyPrefix: "kopek-public-ip", points: settings.publicPerIpPerMinute, duration: 60 },
  ] as const;
  const limiters: (RateLimiterAbstract | null)[] = [];
  let tableReady = false;
  for (const spec of specs) {
    if (spec.points <= 0) {
      limiters.push(null);
      continue;
    }
    limiters.push(await createLimiter(store, spec, tableReady));
    tableReady = true;
  }
  const [perKey = null, failedAuthPerIp = null, publicPerIp = null] = limiters;
  return { perKey, failedAuthPerIp, publicPerIp };
}

async function createLimiter(
  store: RateLimitStore,
  options: IRateLimiterOptions,
  tableReady: boolean,
): Promise<RateLimiterAbstract> {
  if (store.kind === "memory") return new RateLimiterMemory(options);
  const shared = { ...options, insuranceLimiter: new RateLimiterMemory(options) };
  if (store.kind === "redis") return new RateLimiterRedis({ ...shared, storeClient: store.client });
  // The first limiter creates the table (IF NOT EXISTS) and purges expired rows; the others reuse it.
  // Two instances starting at once may race on CREATE TABLE: the loser tries again, finding it made.
  for (let attempt = 1; ; attempt++) {
    try {
      return await postgresLimiter(store.pool, shared, tableReady);
    } catch (cause) {
      if (attempt >= 3) throw cause;
      await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
    }
  }
}

async function postgresLimiter(
  pool: pg.Pool,
  options: IRateLimiterOptions,
  tableReady: boolean,
): Promise<RateLimiterPostgres> {
  // With `tableCreated` the library calls back inside its constructor, before `new` has returned: the
  // callback must not touch the limiter (it did, and a server with every default crashed on start).
  let limiter: RateLimiterPostgres | undefined;
  await new Promise<void>((resolve, reject) => {
    limiter = new RateLimiterPostgres(
      {
        ...options,
        storeClient: pool,
        tableName: RATE_LIMIT_TABLE,
        tableCreated: tableReady,
        clearExpiredByTimeout: !tableReady,
      },
      (error?: Error) => (error ? reject(error) : resolve()),
    );
  });
  if (limiter === undefined) throw new Error("rate limits: the PostgreSQL limiter was not constructed");
  return limiter;
}
