import { afterAll, describe, expect, it } from "vitest";
import { openTestDatabase } from "../../storage-postgres/test/database.js";
import { DEFAULT_RATE_LIMIT_PER_SECOND } from "../src/app.js";
import {
  createRateLimits,
  DEFAULT_FAILED_AUTH_PER_IP_PER_MINUTE,
  DEFAULT_PUBLIC_PER_IP_PER_MINUTE,
} from "../src/limits/rate-limits.js";

const db = await openTestDatabase();
afterAll(() => db.close());

const defaults = {
  perKeyPerSecond: DEFAULT_RATE_LIMIT_PER_SECOND,
  failedAuthPerIpPerMinute: DEFAULT_FAILED_AUTH_PER_IP_PER_MINUTE,
  publicPerIpPerMinute: DEFAULT_PUBLIC_PER_IP_PER_MINUTE,
};

// Every combination of the three limits on and off, the all-on one (the defaults) first: a second
// limiter on a table the first made used to crash start (ReferenceError in the library's callback).
const combinations = [7, 0, 1, 2, 3, 4, 5, 6].map((mask) => ({
  perKeyPerSecond: mask & 1 ? defaults.perKeyPerSecond : 0,
  failedAuthPerIpPerMinute: mask & 2 ? defaults.failedAuthPerIpPerMinute : 0,
  publicPerIpPerMinute: mask & 4 ? defaults.publicPerIpPerMinute : 0,
}));
combinations[0] = defaults;

describe("rate limits counted in PostgreSQL", () => {
  it.each(combinations)("are created and count with %o", async (settings) => {
    const limits = await createRateLimits({ kind: "postgres", pool: db.pool }, settings);
    const expected = [
      settings.perKeyPerSecond,
      settings.failedAuthPerIpPerMinute,
      settings.publicPerIpPerMinute,
    ];
    const made = [limits.perKey, limits.failedAuthPerIp, limits.publicPerIp];
    for (const [index, limiter] of made.entries()) {
      expect(limiter === null).toBe(expected[index] === 0);
      if (limiter === null) continue;
      const first = await limiter.consume(`k-${index}-${JSON.stringify(settings)}`);
      expect(first.remainingPoints).toBe((expected[index] ?? 0) - 1);
    }
  });
});
