import type { ResultAsync } from "neverthrow";
import type { InvoiceStatus, PaymentStatus, SubscriptionStatus } from "../domain/model.js";
import type { StorageError } from "./storage-error.js";

/** How many payments have one status at one provider kind. */
export interface PaymentCount {
  readonly status: PaymentStatus;
  readonly provider: string;
  readonly count: number;
}

export interface StatusCount<S extends string> {
  readonly status: S;
  readonly count: number;
}

/**
 * What storage holds now, across projects, counted for the operator's metrics: only the groups
 * that have rows (a status with none is left out), in no particular order.
 */
export interface ResourceCounts {
  readonly payments: readonly PaymentCount[];
  readonly invoices: readonly StatusCount<InvoiceStatus>[];
  readonly subscriptions: readonly StatusCount<SubscriptionStatus>[];
  /** Webhook deliveries still `pending` (not yet delivered, not given up), to any endpoint. */
  readonly pendingDeliveries: number;
  /** When the oldest event with a pending delivery was created; null when none is pending. */
  readonly oldestPendingEventAt: Date | null;
}

export interface CountStorage {
  /**
   * Payments by status and provider, invoices and subscriptions by status, and the webhook outbox's
   * pending deliveries with its oldest event's time: for the operator's metrics, counted on an
   * interval (never on a scrape), so it may scan.
   */
  countResources(): ResultAsync<ResourceCounts, StorageError>;
}
