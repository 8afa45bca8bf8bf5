import type { Clock, Storage } from "@kopek/core";
import type { Logger } from "pino";

// Each statement deletes at most this many rows, so no purge holds locks for long; a run repeats it
// until nothing expired is left, so records (full responses, with customer data) never outlive their
// lifetime by more than one interval, whatever the load.
export const PURGE_BATCH = 1000;
const PURGE_INTERVAL_MS = 60_000;

/** Deletes expired idempotency records in batches until none is left; how many went. */
export async function purgeAllExpiredIdempotencyKeys(
  storage: Pick<Storage, "purgeExpiredIdempotencyKeys">,
  clock: Clock,
  batch = PURGE_BATCH,
): Promise<number> {
  let total = 0;
  for (;;) {
    const purged = await storage.purgeExpiredIdempotencyKeys(clock.now(), batch);
    if (purged.isErr()) throw new Error(`purging expired idempotency keys failed: ${purged.error.code}`);
    total += purged.value;
    if (purged.value < batch) return total;
  }
}

/** Purges every minute (`kopek serve` and `kopek worker`); a run never overlaps the previous one. */
export function startIdempotencyPurge(options: {
  readonly storage: Storage;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly intervalMs?: number;
}): { stop(): void } {
  let running = false;
  const timer = setInterval(async () => {
    if (running) return;
    running = true;
    try {
      const purged = await purgeAllExpiredIdempotencyKeys(options.storage, options.clock);
      if (purged > 0) options.logger.info({ purged }, "expired idempotency keys purged");
    } catch (cause) {
      options.logger.warn({ err: cause }, "purging expired idempotency keys failed");
    } finally {
      running = false;
    }
  }, options.intervalMs ?? PURGE_INTERVAL_MS);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
