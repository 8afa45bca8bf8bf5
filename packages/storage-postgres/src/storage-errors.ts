import type { StorageError } from "@kopek/core";

/** SQLSTATEs that mean "the database cannot serve us right now", not "this request is wrong". */
const UNAVAILABLE_STATES = new Set([
  // read_only_sql_transaction: the server is not (or no longer) the primary — a failover in progress,
  // a standby still promoting, or an old primary demoted behind a stale endpoint. Retry-safe.
  "25006",
  "57P01", // admin_shutdown
  "57P02", // crash_shutdown
  "57P03", // cannot_connect_now
  "53300", // too_many_connections
  "3D000", // invalid_catalog_name: the database does not exist (yet)
]);

/** Socket-level failures reported by Node (`error.code`). */
const NETWORK_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "ENOTFOUND",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EAI_AGAIN",
]);

/** pg reports a dead or unreachable connection with plain messages and no code. */
const NETWORK_MESSAGES = [
  "Connection terminated",
  "timeout exceeded when trying to connect",
  "Client has encountered a connection error",
  "Cannot use a pool after calling end",
  "Client was closed and is not queryable",
];

const STATE_NAMES: Readonly<Record<string, string>> = {
  "23505": "unique violation",
  "23503": "foreign key violation",
  "23514": "check violation",
  "40001": "serialization failure",
  "40P01": "deadlock detected",
  "42P01": "undefined table (run migrate first)",
};

/**
 * Whether a driver error means the database cannot serve this connection now (it is gone, shutting
 * down, or not the primary): the operation may be retried, and the connection is not reused.
 */
export function isUnavailable(error: unknown): boolean {
  const code = errorCode(error);
  const text = error instanceof Error ? error.message : String(error);
  return (
    (code !== undefined &&
      (NETWORK_CODES.has(code) || UNAVAILABLE_STATES.has(code) || code.startsWith("08"))) ||
    NETWORK_MESSAGES.some((m) => text.includes(m))
  );
}

/** Translates anything a driver call threw into the port's `StorageError`; nothing else escapes. */
export function toStorageError(operation: string, error: unknown): StorageError {
  const code = errorCode(error);
  const text = error instanceof Error ? error.message : String(error);
  const unavailable = isUnavailable(error);
  const name = code !== undefined ? STATE_NAMES[code] : undefined;
  const detail = [code, name].filter((part) => part !== undefined).join(" ");
  return {
    code: unavailable ? "storage_unavailable" : "storage_failed",
    message: `storage-postgres: ${operation} failed${detail === "" ? "" : ` (${detail})`}: ${text}`,
    cause: error,
  };
}

export function leaseLost(projectId: string): StorageError {
  return {
    code: "lease_lost",
    message: `storage-postgres: completeIdempotencyKey: the lease no longer holds the key (project ${projectId})`,
  };
}

/** A version-checked write that matched no row: the caller read a stale version (or the id exists). */
export function conflict(operation: string, target: { projectId: string }): StorageError {
  return {
    code: "conflict",
    message: `storage-postgres: ${operation}: the stored resource changed since it was read (project ${target.projectId})`,
  };
}

function errorCode(error: unknown): string | undefined {
  if (typeof error !== "object" || error === null || !("code" in error)) return undefined;
  return typeof error.code === "string" ? error.code : undefined;
}
