import type { ResultAsync } from "neverthrow";
import type { Payment, Refund, RefundStatus } from "../domain/model.js";
import type { DomainEvent } from "../events/domain-event.js";
import type { ResourcePage } from "./resource-storage.js";
import type { StorageError } from "./storage-error.js";

/**
 * Refunds (API.md 10.6), read by project. A new refund reserves its amount against its payment in the
 * same atomic step that stores it, so concurrent refunds of one payment (in any number of processes)
 * never together exceed it; a refund that succeeds adds its amount to the payment's `amountRefunded`
 * in the same atomic step as its own write and its events.
 */
export interface RefundStorage {
  /** The refund with this id in this project, or null. */
  findRefund(projectId: string, refundId: string): ResultAsync<Refund | null, StorageError>;
  /** A project's refunds, newest first (by id), filtered as `page` says. */
  listRefunds(projectId: string, page: RefundListPage): ResultAsync<readonly Refund[], StorageError>;
  /**
   * Stores a new `pending` refund (version 1) when its payment — in its project, `succeeded`, in the
   * refund's currency — still has at least `refund.amount` refundable: its amount less its
   * `amountRefunded` and every pending refund of it. `payment`, when given, is first written with
   * `events` by `savePayment`'s version rule (a payment settled with the refund it needs), all in one
   * atomic step; `conflict` (writing nothing) when that payment is not at the version it was based on.
   */
  reserveRefund(
    refund: Refund,
    payment: Payment | null,
    events: readonly DomainEvent[],
  ): ResultAsync<RefundReservation, StorageError>;
  /**
   * Writes version n of a refund over a stored n−1, with its events; `conflict` (writing nothing)
   * otherwise. A refund stored `pending` and written `succeeded` adds its amount to its payment's
   * `amountRefunded` (and bumps the payment's version) in the same atomic step.
   */
  saveRefund(refund: Refund, events: readonly DomainEvent[]): ResultAsync<void, StorageError>;
  /**
   * Leases up to `limit` refunds, across projects, that are `pending` with `nextCheckAt <= now`,
   * earliest first, exactly as `claimPaymentChecks` leases payments.
   */
  claimRefundChecks(claim: RefundCheckClaim): ResultAsync<readonly Refund[], StorageError>;
}

/** What `reserveRefund` did. */
export type RefundReservation =
  | { readonly kind: "reserved" }
  /** A refund with this id is already stored (a re-execution): nothing written, the stored one. */
  | { readonly kind: "exists"; readonly refund: Refund }
  /**
   * Nothing written: the payment is not refundable for this much. `refundable`: what remains of it
   * ("0" for a payment not found, not succeeded, or in another currency).
   */
  | { readonly kind: "exceeds"; readonly refundable: string };

export interface RefundCheckClaim {
  readonly now: Date;
  readonly limit: number;
  readonly leaseExpiresAt: Date;
}

export interface RefundListPage extends ResourcePage {
  readonly paymentId: string | null;
  readonly status: RefundStatus | null;
}
