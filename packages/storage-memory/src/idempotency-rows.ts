import { type CompletedRecord, decodeCompleted } from "./completed-record.js";
import type { OffHeapRows } from "./off-heap-rows.js";

/**
 * A record in progress, changed in place as it moves on (claimed, taken over, released). Completed, it
 * is replaced by its `CompletedRecord`.
 */
export interface InProgressRow {
  readonly recordId: string;
  readonly fingerprint: string;
  readonly sentDigest: string | undefined;
  /** Epoch milliseconds; fixed for the life of the record (API.md 3: 24 hours from the first request). */
  readonly expiresAt: number;
  /** The holder's lease; null once released. */
  leaseToken: string | null;
  /** Epoch milliseconds. */
  leaseExpiresAt: number;
}

// A completed record's key off the heap: the project id's length first, so no pair of project id and
// key can spell another pair's.
export function recordKeyOf(projectId: string, key: string): string {
  return `${projectId.length}:${projectId}${key}`;
}

export function splitRecordKey(recordKey: string): { readonly projectId: string; readonly key: string } {
  const colon = recordKey.indexOf(":");
  const end = colon + 1 + Number(recordKey.slice(0, colon));
  return { projectId: recordKey.slice(colon + 1, end), key: recordKey.slice(end) };
}

/** Every record, in progress (by project, then key) and completed, as `inspect()` shows it. */
export function idempotencyRows(
  inProgress: ReadonlyMap<string, ReadonlyMap<string, InProgressRow>>,
  completed: OffHeapRows<CompletedRecord>,
) {
  const open = [...inProgress].flatMap(([projectId, rows]) =>
    [...rows].map(([key, row]) => {
      const { recordId, fingerprint, expiresAt, leaseToken, leaseExpiresAt } = row;
      const lease = { leaseToken, leaseExpiresAt: new Date(leaseExpiresAt) };
      return {
        recordId,
        projectId,
        key,
        fingerprint,
        state: "in_progress",
        ...lease,
        expiresAt: new Date(expiresAt),
        response: null,
      };
    }),
  );
  const done = [...completed.entries()].map(([recordKey, row]) => {
    const { recordId, fingerprint, expiresAt, response } = decodeCompleted(row);
    const lease = { leaseToken: null, leaseExpiresAt: null };
    return {
      recordId,
      ...splitRecordKey(recordKey),
      fingerprint,
      state: "completed",
      ...lease,
      expiresAt: new Date(expiresAt),
      response,
    };
  });
  return [...open, ...done];
}
