import type { Payment, Refund, RefundCheckClaim, RefundListPage, RefundReservation } from "@kopek/core";
import { deepCopy } from "./deep-copy.js";
import type { ResourceStore } from "./resource-store.js";
import { copies, find, indexNew, list, table } from "./table.js";

/**
 * Refunds, by id, beside the payments they refund (in `ResourceStore`). Every method runs in one
 * synchronous step, which is what makes a reservation atomic: no other write can run between reading
 * what remains of a payment and storing the refund that takes part of it.
 */
export class RefundStore {
  readonly #refunds = table(copies<Refund>());

  constructor(
    private readonly resources: ResourceStore,
    private readonly maxRefunds: number,
  ) {}

  findRefund(projectId: string, id: string): Refund | null {
    return find(this.#refunds, projectId, id);
  }

  listRefunds(projectId: string, page: RefundListPage): Refund[] {
    const { paymentId, status } = page;
    return list(
      this.#refunds,
      projectId,
      page,
      (r) => (paymentId === null || r.paymentId === paymentId) && (status === null || r.status === status),
    );
  }

  /** What remains refundable of a payment: its amount less what was refunded and what pending refunds hold. */
  refundable(payment: Payment, currency: string): bigint {
    if (payment.status !== "succeeded" || payment.amount.currency !== currency) return 0n;
    let held = BigInt(payment.amountRefunded);
    for (const r of this.#refunds.rows.values())
      if (r.paymentId === payment.id && r.status === "pending") held += BigInt(r.amount.amount);
    return BigInt(payment.amount.amount) - held;
  }

  /**
   * `reserveRefund` after the payment (if any) was accepted and written by the caller: the refund is
   * stored when what remains covers it. The caller writes the payment only on "reserved".
   */
  reserve(refund: Refund, payment: Payment | null): RefundReservation {
    const stored = this.#refunds.rows.get(refund.id);
    if (stored !== undefined) return { kind: "exists", refund: deepCopy(stored) };
    const current = payment ?? this.resources.findPayment(refund.projectId, refund.paymentId);
    const remaining =
      current === null || current.projectId !== refund.projectId || current.id !== refund.paymentId
        ? 0n
        : this.refundable(current, refund.amount.currency);
    if (BigInt(refund.amount.amount) > remaining) {
      return { kind: "exceeds", refundable: (remaining > 0n ? remaining : 0n).toString() };
    }
    this.#insert(refund);
    return { kind: "reserved" };
  }

  /** Version n over n−1; a pending refund written succeeded credits its payment. False on a conflict. */
  save(refund: Refund): boolean {
    const stored = this.#refunds.rows.get(refund.id);
    if (
      stored === undefined ||
      stored.projectId !== refund.projectId ||
      stored.version !== refund.version - 1
    )
      return false;
    if (stored.status === "pending" && refund.status === "succeeded")
      this.resources.creditRefund(refund.projectId, refund.paymentId, refund.amount.amount);
    this.#refunds.rows.set(refund.id, deepCopy(refund));
    return true;
  }

  /** Pending refunds due for a check, leased by moving their next check to the lease's end. */
  claimChecks(claim: RefundCheckClaim): Refund[] {
    const now = claim.now.getTime();
    const due = [...this.#refunds.rows.values()].filter(
      (r) => r.status === "pending" && r.nextCheckAt !== null && r.nextCheckAt.getTime() <= now,
    );
    due.sort((a, b) => (a.nextCheckAt?.getTime() ?? 0) - (b.nextCheckAt?.getTime() ?? 0));
    return due.slice(0, claim.limit).map((r) => {
      const leased = { ...r, nextCheckAt: new Date(claim.leaseExpiresAt.getTime()) };
      this.#refunds.rows.set(r.id, leased);
      return deepCopy(leased);
    });
  }

  tables() {
    return { refunds: [...this.#refunds.rows.values()].map(deepCopy) };
  }

  #insert(refund: Refund): void {
    const t = this.#refunds;
    t.rows.set(refund.id, deepCopy(refund));
    indexNew(t, refund.id, refund.projectId, this.maxRefunds);
  }
}
