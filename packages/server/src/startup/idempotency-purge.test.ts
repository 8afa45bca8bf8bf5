import { manualClock } from "@kopek/testing";
import { okAsync } from "neverthrow";
import { expect, test } from "vitest";
import { PURGE_BATCH, purgeAllExpiredIdempotencyKeys } from "./idempotency-purge.js";

test("one run purges every expired record, in bounded batches, however many there are", async () => {
  let expired = 2 * PURGE_BATCH + 345;
  const limits: number[] = [];
  const storage = {
    purgeExpiredIdempotencyKeys: (_now: Date, limit: number) => {
      limits.push(limit);
      const purged = Math.min(limit, expired);
      expired -= purged;
      return okAsync(purged);
    },
  };
  const clock = manualClock(new Date("2026-11-25T08:00:00.000Z"));
  expect(await purgeAllExpiredIdempotencyKeys(storage, clock)).toBe(2 * PURGE_BATCH + 345);
  expect(expired).toBe(0);
  expect(limits).toEqual([PURGE_BATCH, PURGE_BATCH, PURGE_BATCH]);
  expect(await purgeAllExpiredIdempotencyKeys(storage, clock)).toBe(0);
});
