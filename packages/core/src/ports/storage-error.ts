/** Every storage failure; a driver's own errors are translated inside the adapter and never reach core. */
export interface StorageError {
  /**
   * `conflict`: a write based on a stale read (version check); the caller re-reads and retries.
   * `duplicate`: a new resource would take a value only one may hold (a second subscription from
   * one invoice, API.md 10.5); nothing was written.
   */
  readonly code: "storage_unavailable" | "lease_lost" | "conflict" | "duplicate" | "storage_failed";
  /** For the server log only; never shown to a client. */
  readonly message: string;
  readonly cause?: unknown;
}
