import type { ResultAsync } from "neverthrow";
import type { Payment, PaymentKind, PaymentStatus } from "../domain/model.js";
import type { DomainEvent } from "../events/domain-event.js";
import type { ResourcePage } from "./resource-storage.js";
import type { StorageError } from "./storage-error.js";

/**
 * Payments (API.md 10.2), read by project. A payment is written on its own (`savePayment`) or with
 * the resource it settles (`saveInvoice`, `saveSubscription`, an idempotent write), in the same atomic
 * step as that resource and the events, and only over the version it was based on.
 */
export interface PaymentStorage {
  /** The payment with this id in this project, or null. */
  findPayment(projectId: string, paymentId: string): ResultAsync<Payment | null, StorageError>;
  /** The payment of this project the provider knows by this id (a notification names it so), or null. */
  findPaymentByProviderId(
    projectId: string,
    providerPaymentId: string,
  ): ResultAsync<Payment | null, StorageError>;
  /** A project's payments, newest first (by id), filtered as `page` says. */
  listPayments(projectId: string, page: PaymentListPage): ResultAsync<readonly Payment[], StorageError>;
  /**
   * Stores a payment with its events: a new one (version 1, its id unused) or version n over a stored
   * n−1; `conflict` (writing nothing) otherwise.
   */
  savePayment(payment: Payment, events: readonly DomainEvent[]): ResultAsync<void, StorageError>;
  /**
   * Leases up to `limit` payments, across projects, that are `pending` with `nextCheckAt <= now`,
   * earliest first: each one's `nextCheckAt` becomes `leaseExpiresAt` (nothing else changes, the
   * version neither), so no other claim takes it until then. Returned as stored after the lease.
   */
  claimPaymentChecks(claim: PaymentCheckClaim): ResultAsync<readonly Payment[], StorageError>;
  /**
   * How many payments are `pending` now, across projects, by age: for each cutoff, those created at
   * or before it (so the counts never grow along an ascending list). For the operator's metrics.
   */
  countPendingPayments(createdAtOrBefore: readonly Date[]): ResultAsync<readonly number[], StorageError>;
}

export interface PaymentCheckClaim {
  readonly now: Date;
  readonly limit: number;
  readonly leaseExpiresAt: Date;
}

export interface PaymentListPage extends ResourcePage {
  readonly invoiceId: string | null;
  readonly subscriptionId: string | null;
  readonly status: PaymentStatus | null;
  /** Only the payments of this customer (API.md 11.1); null or absent: all. */
  readonly customerId?: string | null;
  /** Only the payments of this kind; null or absent: all. */
  readonly kind?: PaymentKind | null;
}
