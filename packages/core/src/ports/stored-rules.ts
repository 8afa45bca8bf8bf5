import type { StoredResource } from "./idempotency-storage.js";
import type { StorageError } from "./storage-error.js";

/**
 * A resource no storage may hold, checked by every adapter before it writes anything (PostgreSQL's own
 * checks refuse it too, but a failed statement would end an embedded PGlite's connection): a
 * subscription's `declines` and `firstDeclinedAt` must agree — both 0 and null, or both set
 * (`subscriptions_dunning_check`). Answers the adapter's `storage_failed`, or null when it may be stored.
 */
export function refusedResource(adapter: string, resource: StoredResource | null): StorageError | null {
  if (resource?.kind !== "subscription") return null;
  const { id, declines, firstDeclinedAt } = resource.subscription;
  if ((declines === 0) === (firstDeclinedAt === null)) return null;
  return {
    code: "storage_failed",
    message: `${adapter}: subscription ${id} has ${declines} declines and firstDeclinedAt ${firstDeclinedAt?.toISOString() ?? "null"}`,
  };
}
