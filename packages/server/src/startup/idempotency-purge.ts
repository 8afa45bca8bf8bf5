import { type Clock, EVENT_RETENTION_MS, type Storage, type StorageError } from "@kopek/core";
import type { ResultAsync } from "neverthrow";
import type { Logger } from "pino";

// Each statement deletes at most this many rows, so no purge holds locks for long; a run repeats it
// until nothing expired is left, so records (full responses, with customer data) never outlive their
// lifetime by more than one interval, whatever the load.
export const PURGE_BATCH = 1000;
const PURGE_INTERVAL_MS = 60_000;

/** Runs one batched delete until a batch comes back short; how many rows went in all. */
async function inBatches(
  what: string,
  purge: (batch: number) => ResultAsync<number, StorageError>,
  batch: number,
): Promise<number> {
  let total = 0;
  for (;;) {
    const purged = await purge(batch);
    if (purged.isErr()) throw new Error(`purging ${what} failed: ${purged.error.code}`);
    total += purged.value;
    if (purged.value < batch) return total;
  }
}

/** Deletes expired idempotency records in batches until none is left; how many went. */
export function purgeAllExpiredIdempotencyKeys(
  storage: Pick<Storage, "purgeExpiredIdempotencyKeys">,
  clock: Clock,
  batch = PURGE_BATCH,
): Promise<number> {
  return inBatches(
    "expired idempotency keys",
    (n) => storage.purgeExpiredIdempotencyKeys(clock.now(), n),
    batch,
  );
}

/** Deletes events past their 30 days (API.md 12), with their deliveries and attempts; how many went. */
export function purgeOldEvents(
  storage: Pick<Storage, "purgeEventsBefore">,
  clock: Clock,
  batch = PURGE_BATCH,
): Promise<number> {
  return inBatches(
    "old events",
    (n) => storage.purgeEventsBefore(new Date(clock.now().getTime() - EVENT_RETENTION_MS), n),
    batch,
  );
}

/**
 * Purges every minute (`kopek serve` and `kopek worker`) what outlived its lifetime: idempotency
 * records and events; a run never overlaps the previous one.
 */
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
      const events = await purgeOldEvents(options.storage, options.clock);
      if (events > 0) options.logger.info({ purged: events }, "events past their 30 days purged");
    } catch (cause) {
      options.logger.warn({ err: cause }, "purging expired idempotency keys or old events failed");
    } finally {
      running = false;
    }
  }, options.intervalMs ?? PURGE_INTERVAL_MS);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
