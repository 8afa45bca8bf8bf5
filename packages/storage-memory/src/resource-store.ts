import {
  type Invoice,
  type InvoicePage,
  invoiceStatusAt,
  type Payment,
  type PaymentCheckClaim,
  type PaymentListPage,
  type RenewalClaim,
  type ResourcePage,
  type StoredResource,
  type Subscription,
} from "@kopek/core";
import { deepCopy } from "./deep-copy.js";
import { ProjectIndex } from "./project-index.js";

export interface Table<T extends { id: string; projectId: string; version: number }> {
  readonly rows: Map<string, T>;
  readonly byProject: Map<string, ProjectIndex>;
  /**
   * Ids in creation order, for evicting the oldest. Not `rows.keys().next()`: a Map keeps deleted
   * entries as holes at its front until it rehashes, so finding the first live one after many
   * evictions walks all the holes, and sustained load turned quadratic.
   */
  readonly order: string[];
  head: number;
}

export const table = <T extends { id: string; projectId: string; version: number }>(): Table<T> => ({
  rows: new Map(),
  byProject: new Map(),
  order: [],
  head: 0,
});

/**
 * Subscriptions, invoices and payments, by id. Written as part of an idempotent completion, by the
 * payment page or by the renewal worker, always version-checked. Each kind keeps at most
 * `maxResources` rows, dropping the oldest, so a long-running development server cannot grow without
 * bound.
 */
export class ResourceStore {
  readonly #subscriptions = table<Subscription>();
  readonly #invoices = table<Invoice>();
  readonly #payments = table<Payment>();
  /** Renewal leases: subscription id → epoch ms until which a worker holds it. */
  readonly #renewalLeases = new Map<string, number>();
  /** `project id + invoice id` of every invoice that backs a subscription (API.md 10.5): one each. */
  readonly #usedInvoices = new Set<string>();

  constructor(private readonly maxResources: number) {}

  /**
   * Writes a resource: version 1 creates it, version n replaces version n−1. False on a conflict.
   * A copy is stored unless the caller hands it over (`owned`: it keeps no reference to it).
   */
  store(resource: StoredResource, { owned = false } = {}): boolean {
    if (resource.kind === "invoice") return this.#write(this.#invoices, resource.invoice, owned);
    const { subscription } = resource;
    const written = this.#write(this.#subscriptions, subscription, owned);
    if (written && subscription.version === 1 && subscription.invoiceId !== null)
      this.#usedInvoices.add(invoiceKey(subscription.projectId, subscription.invoiceId));
    return written;
  }

  /** Whether storing `resource` would make an invoice back a second subscription (`duplicate`). */
  takesUsedInvoice(resource: StoredResource): boolean {
    if (resource.kind !== "subscription") return false;
    const { subscription } = resource;
    return (
      subscription.version === 1 &&
      subscription.invoiceId !== null &&
      this.#usedInvoices.has(invoiceKey(subscription.projectId, subscription.invoiceId))
    );
  }

  saveSubscription(subscription: Subscription): boolean {
    const written = this.#write(this.#subscriptions, subscription);
    if (written) this.#renewalLeases.delete(subscription.id);
    return written;
  }

  findSubscription(projectId: string, id: string): Subscription | null {
    return find(this.#subscriptions, projectId, id);
  }

  findInvoice(projectId: string, id: string): Invoice | null {
    return find(this.#invoices, projectId, id);
  }

  /** The hosted payment page's lookup: by id alone. */
  findInvoiceById(id: string): Invoice | null {
    const row = this.#invoices.rows.get(id);
    return row === undefined ? null : deepCopy(row);
  }

  /** Invoices still stored as created past their expiry, for the sweeper (a scan: memory is small). */
  lapsedInvoices(now: Date, limit: number): Invoice[] {
    const lapsed = [...this.#invoices.rows.values()].filter(
      (i) => i.status === "created" && i.expiresAt.getTime() <= now.getTime(),
    );
    lapsed.sort((a, b) => a.expiresAt.getTime() - b.expiresAt.getTime());
    return lapsed.slice(0, limit).map(deepCopy);
  }

  listSubscriptions(projectId: string, page: ResourcePage): Subscription[] {
    return list(this.#subscriptions, projectId, page, () => true);
  }

  listInvoices(projectId: string, page: InvoicePage): Invoice[] {
    const { status, now } = page;
    return list(
      this.#invoices,
      projectId,
      page,
      (i) => status === null || invoiceStatusAt(i, now) === status,
    );
  }

  claimDueSubscriptions(claim: RenewalClaim): Subscription[] {
    const now = claim.now.getTime();
    const due: Subscription[] = [];
    for (const s of this.#subscriptions.rows.values()) {
      if (s.status === "canceled" || s.status === "incomplete" || s.nextAttemptAt.getTime() > now) continue;
      const leasedUntil = this.#renewalLeases.get(s.id);
      if (leasedUntil !== undefined && leasedUntil > now) continue;
      due.push(s);
    }
    due.sort((a, b) => a.nextAttemptAt.getTime() - b.nextAttemptAt.getTime());
    return due.slice(0, claim.limit).map((s) => {
      const leased = { ...s, version: s.version + 1 };
      this.#subscriptions.rows.set(s.id, leased);
      this.#renewalLeases.set(s.id, claim.leaseExpiresAt.getTime());
      return deepCopy(leased);
    });
  }

  /** Whether every payment is at the version its write is based on (`acceptsPayments` before `writePayments`). */
  acceptsPayments(payments: readonly Payment[]): boolean {
    const ids = new Set(payments.map((p) => p.id));
    return ids.size === payments.length && payments.every((p) => this.#accepts(this.#payments, p));
  }

  /** Writes payments that `acceptsPayments` accepted, in the same synchronous step. */
  writePayments(payments: readonly Payment[]): void {
    for (const payment of payments) this.#write(this.#payments, payment);
  }

  findPayment(projectId: string, id: string): Payment | null {
    return find(this.#payments, projectId, id);
  }

  /**
   * Adds a succeeded refund's amount to its payment's `amountRefunded` (a new version), in the caller's
   * synchronous step; false when the payment is not stored.
   */
  creditRefund(projectId: string, paymentId: string, amount: string): boolean {
    const payment = this.#payments.rows.get(paymentId);
    if (payment === undefined || payment.projectId !== projectId) return false;
    const amountRefunded = (BigInt(payment.amountRefunded) + BigInt(amount)).toString();
    this.#payments.rows.set(paymentId, { ...payment, amountRefunded, version: payment.version + 1 });
    return true;
  }

  /** A scan: notifications are rare next to everything else memory storage serves. */
  findPaymentByProviderId(projectId: string, providerPaymentId: string): Payment | null {
    for (const p of this.#payments.rows.values())
      if (p.projectId === projectId && p.providerPaymentId === providerPaymentId) return deepCopy(p);
    return null;
  }

  listPayments(projectId: string, page: PaymentListPage): Payment[] {
    const { invoiceId, subscriptionId, status } = page;
    return list(
      this.#payments,
      projectId,
      page,
      (p) =>
        (invoiceId === null || p.invoiceId === invoiceId) &&
        (subscriptionId === null || p.subscriptionId === subscriptionId) &&
        (status === null || p.status === status),
    );
  }

  /** Pending payments due for a check, leased by moving their next check to the lease's end. */
  claimPaymentChecks(claim: PaymentCheckClaim): Payment[] {
    const now = claim.now.getTime();
    const due = [...this.#payments.rows.values()].filter(
      (p) => p.status === "pending" && p.nextCheckAt !== null && p.nextCheckAt.getTime() <= now,
    );
    due.sort((a, b) => (a.nextCheckAt?.getTime() ?? 0) - (b.nextCheckAt?.getTime() ?? 0));
    return due.slice(0, claim.limit).map((p) => {
      const leased = { ...p, nextCheckAt: new Date(claim.leaseExpiresAt.getTime()) };
      this.#payments.rows.set(p.id, leased);
      return deepCopy(leased);
    });
  }

  countPendingPayments(cutoffs: readonly Date[]): number[] {
    const counts = cutoffs.map(() => 0);
    for (const payment of this.#payments.rows.values()) {
      if (payment.status !== "pending") continue;
      const created = payment.createdAt.getTime();
      cutoffs.forEach((cutoff, i) => {
        if (created <= cutoff.getTime()) counts[i] = (counts[i] ?? 0) + 1;
      });
    }
    return counts;
  }

  /** The stored rows, for `inspect()`. */
  tables() {
    return {
      subscriptions: [...this.#subscriptions.rows.values()].map(deepCopy),
      invoices: [...this.#invoices.rows.values()].map(deepCopy),
      payments: [...this.#payments.rows.values()].map(deepCopy),
    };
  }

  #evictOldest<T extends { id: string; projectId: string; version: number }>(t: Table<T>): void {
    const evicted = evictOldest(t);
    if (evicted !== null) this.#renewalLeases.delete(evicted);
  }

  #accepts<T extends { id: string; projectId: string; version: number }>(t: Table<T>, row: T): boolean {
    const stored = t.rows.get(row.id);
    return row.version === 1
      ? stored === undefined
      : stored?.projectId === row.projectId && stored.version === row.version - 1;
  }

  #write<T extends { id: string; projectId: string; version: number }>(
    t: Table<T>,
    row: T,
    owned = false,
  ): boolean {
    if (!this.#accepts(t, row)) return false;
    const isNew = row.version === 1;
    t.rows.set(row.id, owned ? row : deepCopy(row));
    if (!isNew) return true;
    let index = t.byProject.get(row.projectId);
    if (index === undefined) {
      index = new ProjectIndex();
      t.byProject.set(row.projectId, index);
    }
    index.add(row.id);
    t.order.push(row.id);
    if (t.rows.size > this.maxResources) this.#evictOldest(t);
    return true;
  }
}

function invoiceKey(projectId: string, invoiceId: string): string {
  return `${projectId} ${invoiceId}`;
}

export function evictOldest<T extends { id: string; projectId: string; version: number }>(
  t: Table<T>,
): string | null {
  while (t.head < t.order.length) {
    const id = t.order[t.head++] as string;
    if (t.head > 1024 && t.head * 2 > t.order.length) {
      t.order.splice(0, t.head);
      t.head = 0;
    }
    const row = t.rows.get(id);
    if (row === undefined) continue;
    t.rows.delete(id);
    t.byProject.get(row.projectId)?.forget((live) => t.rows.has(live));
    return id;
  }
  return null;
}

export function find<T extends { projectId: string }>(
  t: Table<T & { id: string; version: number }>,
  projectId: string,
  id: string,
) {
  const row = t.rows.get(id);
  // Another project's resource is answered exactly like a missing one.
  return row !== undefined && row.projectId === projectId ? deepCopy(row) : null;
}

export function list<T extends { id: string; projectId: string; version: number }>(
  t: Table<T>,
  projectId: string,
  page: ResourcePage,
  keep: (row: T) => boolean,
): T[] {
  const index = t.byProject.get(projectId);
  if (index === undefined) return [];
  const keepId = (id: string) => {
    const row = t.rows.get(id);
    return row !== undefined && keep(row);
  };
  return index.newest(page.limit, page.before, keepId).map((id) => deepCopy(t.rows.get(id) as T));
}
