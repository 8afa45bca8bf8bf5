import type { ResultAsync } from "neverthrow";
import type { Invoice, Subscription } from "../domain/model.js";
import type { StorageError } from "./storage-error.js";

/** The scans across every project that background jobs make: renewals due, invoices lapsed, saves pending. */
export interface ScheduleStorage {
  /**
   * Leases up to `limit` subscriptions that are `active` or `past_due`, whose `nextAttemptAt <= now`
   * and whose renewal lease is free or expired, earliest first; bumps each one's version and returns
   * them as stored. Two workers never hold the same subscription at once.
   */
  claimDueSubscriptions(claim: RenewalClaim): ResultAsync<readonly Subscription[], StorageError>;
  /** Up to `limit` invoices stored as `created` whose `expiresAt <= now`, earliest expiry first. */
  listLapsedInvoices(now: Date, limit: number): ResultAsync<readonly Invoice[], StorageError>;
  /**
   * Up to `limit` subscriptions whose method-update link holds a `pending` save (API.md 11.5), in no
   * set order: what reconciliation asks the provider about, so a payer who never came back loses nothing.
   */
  listPendingMethodSaves(limit: number): ResultAsync<readonly Subscription[], StorageError>;
}

export interface RenewalClaim {
  readonly now: Date;
  readonly limit: number;
  readonly leaseToken: string;
  readonly leaseExpiresAt: Date;
}
