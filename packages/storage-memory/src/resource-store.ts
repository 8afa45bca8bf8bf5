import {
  ERASED,
  type Invoice,
  type InvoicePage,
  type InvoiceStatus,
  invoiceStatusAt,
  type Payment,
  type PaymentCheckClaim,
  type PaymentCount,
  type PaymentListPage,
  type Receipt,
  type RenewalClaim,
  type ResourceCounts,
  type StoredResource,
  type Subscription,
  type SubscriptionPage,
  type SubscriptionStatus,
} from "@kopek/core";
import { deepCopy } from "./deep-copy.js";
import type { FlatRow } from "./flat-rows.js";
import { createdExpiry, invoiceFacts, invoiceRows } from "./invoice-row.js";
import { OffHeapRows } from "./off-heap-rows.js";
import { copies, find, indexNew, list, type Resource, type Table, table } from "./table.js";

/**
 * Subscriptions, invoices and payments, by id. Written as part of an idempotent completion, by the
 * payment page or by the renewal worker, always version-checked. Each kind keeps at most
 * `maxResources` rows, dropping the oldest, so a long-running development server cannot grow without
 * bound.
 */
/** The statuses the renewal worker takes up (as PostgreSQL's claim): never incomplete, paused or canceled. */
const RENEWED: ReadonlySet<SubscriptionStatus> = new Set(["trialing", "active", "past_due"]);

export class ResourceStore {
  readonly #subscriptions = table(copies<Subscription>());
  /** Invoices are kept off the heap: one is kept for every create (off-heap-rows.ts says why). */
  readonly #invoiceRows = new OffHeapRows<FlatRow>();
  readonly #invoices = table(invoiceRows, this.#invoiceRows);
  readonly #payments = table(copies<Payment>());
  /** Renewal leases: subscription id → epoch ms until which a worker holds it. */
  readonly #renewalLeases = new Map<string, number>();
  /** `project id + invoice id` of every invoice that backs a subscription (API.md 10.5): one each. */
  readonly #usedInvoices = new Set<string>();
  /**
   * No invoice stored as created expires before this (epoch ms), so the sweeper's scan is skipped
   * until then: lowered by every write of a created invoice, set by each scan to the earliest it saw.
   */
  #earliestExpiry = Number.POSITIVE_INFINITY;

  constructor(private readonly maxResources: number) {}

  /**
   * Writes a resource: version 1 creates it, version n replaces version n−1. False on a conflict.
   * A copy is stored unless the caller hands it over (`owned`: it keeps no reference to it).
   */
  store(resource: StoredResource, { owned = false } = {}): boolean {
    if (resource.kind === "invoice") {
      const { invoice } = resource;
      const written = this.#write(this.#invoices, invoice, owned);
      if (written && invoice.status === "created")
        this.#earliestExpiry = Math.min(this.#earliestExpiry, invoice.expiresAt.getTime());
      return written;
    }
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
    return row === undefined ? null : invoiceRows.decode(row);
  }

  /**
   * Invoices still stored as created past their expiry, for the sweeper: a scan that decodes only
   * those, and none while no invoice can have lapsed (a pass over 100,000 rows takes 10–30 ms).
   */
  lapsedInvoices(now: Date, limit: number): Invoice[] {
    const at = now.getTime();
    if (at < this.#earliestExpiry) return [];
    let earliest = Number.POSITIVE_INFINITY;
    const lapsed = this.#invoiceRows.pick((bytes, start, end) => {
      const expiresAt = createdExpiry(bytes, start, end);
      if (expiresAt === null) return null;
      earliest = Math.min(earliest, expiresAt);
      return expiresAt <= at ? expiresAt : null;
    });
    this.#earliestExpiry = earliest;
    lapsed.sort(([, a], [, b]) => a - b);
    return lapsed.slice(0, limit).map(([id]) => invoiceRows.decode(this.#invoiceRows.get(id) as FlatRow));
  }

  listSubscriptions(projectId: string, page: SubscriptionPage): Subscription[] {
    const customerId = page.customerId ?? null;
    return list(
      this.#subscriptions,
      projectId,
      page,
      (s) => customerId === null || s.customerId === customerId,
    );
  }

  listInvoices(projectId: string, page: InvoicePage): Invoice[] {
    const { status, now } = page;
    const customerId = page.customerId ?? null;
    return list(
      this.#invoices,
      projectId,
      page,
      (row) =>
        (status === null || invoiceStatusAt(invoiceFacts(row), now) === status) &&
        // Decoded only when a customer is asked for: the common list reads the row's facts alone.
        (customerId === null || invoiceRows.decode(row).customerId === customerId),
    );
  }

  claimDueSubscriptions(claim: RenewalClaim): Subscription[] {
    const now = claim.now.getTime();
    const due: Subscription[] = [];
    for (const s of this.#subscriptions.rows.values()) {
      if (!RENEWED.has(s.status) || s.nextAttemptAt.getTime() > now) continue;
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

  /** Up to `limit` subscriptions with a pending method save (API.md 11.5): a scan, as few hold one. */
  pendingMethodSaves(limit: number): Subscription[] {
    const found: Subscription[] = [];
    for (const s of this.#subscriptions.rows.values()) {
      if (found.length >= limit) break;
      if (s.methodUpdate?.saves.some((save) => save.state === "pending")) found.push(deepCopy(s));
    }
    return found;
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
    const customerId = page.customerId ?? null;
    const kind = page.kind ?? null;
    return list(
      this.#payments,
      projectId,
      page,
      (p) =>
        (kind === null || p.kind === kind) &&
        (invoiceId === null || p.invoiceId === invoiceId) &&
        (subscriptionId === null || p.subscriptionId === subscriptionId) &&
        (customerId === null || p.customerId === customerId) &&
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

  /** Payments by status and provider, invoices and subscriptions by status (metrics; a full scan). */
  countResources(): Pick<ResourceCounts, "payments" | "invoices" | "subscriptions"> {
    const payments = new Map<string, PaymentCount>();
    for (const p of this.#payments.rows.values()) {
      const key = JSON.stringify([p.status, p.provider]);
      const count = (payments.get(key)?.count ?? 0) + 1;
      payments.set(key, { status: p.status, provider: p.provider, count });
    }
    const invoices = new Map<InvoiceStatus, number>();
    for (const row of this.#invoiceRows.values()) {
      const { status } = invoiceFacts(row);
      invoices.set(status, (invoices.get(status) ?? 0) + 1);
    }
    const subscriptions = new Map<SubscriptionStatus, number>();
    for (const s of this.#subscriptions.rows.values())
      subscriptions.set(s.status, (subscriptions.get(s.status) ?? 0) + 1);
    const byStatus = <S extends string>(counts: Map<S, number>) =>
      [...counts].map(([status, count]) => ({ status, count }));
    return {
      payments: [...payments.values()],
      invoices: byStatus(invoices),
      subscriptions: byStatus(subscriptions),
    };
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

  /**
   * Erases the contacts of a customer's invoices and subscriptions (API.md 11.1): receipt contacts and
   * an invoice's inline customer become "erased", each one version on. In the caller's synchronous step.
   */
  eraseContacts(projectId: string, customerId: string): void {
    for (const s of [...this.#subscriptions.rows.values()]) {
      if (s.projectId !== projectId || s.customerId !== customerId || s.receipt === null) continue;
      this.#subscriptions.rows.set(s.id, { ...s, receipt: erasedReceipt(s.receipt), version: s.version + 1 });
    }
    for (const [id, row] of [...this.#invoiceRows.entries()]) {
      const invoice = invoiceRows.decode(row);
      if (invoice.projectId !== projectId || invoice.customerId !== customerId) continue;
      const erased: Invoice = {
        ...invoice,
        customer: invoice.customer && {
          ...invoice.customer,
          email: ERASED,
          phone: invoice.customer.phone === null ? null : ERASED,
        },
        receipt: invoice.receipt === null ? null : erasedReceipt(invoice.receipt),
        version: invoice.version + 1,
      };
      this.#invoices.rows.set(id, invoiceRows.encode(erased, true));
    }
  }

  /** The stored rows, for `inspect()`. */
  tables() {
    return {
      subscriptions: [...this.#subscriptions.rows.values()].map(deepCopy),
      invoices: [...this.#invoices.rows.values()].map((row) => invoiceRows.decode(row)),
      payments: [...this.#payments.rows.values()].map(deepCopy),
    };
  }

  #accepts<T extends Resource, R>(t: Table<T, R>, resource: T): boolean {
    const stored = t.rows.get(resource.id);
    if (resource.version === 1) return stored === undefined;
    if (stored === undefined) return false;
    const { projectId, version } = t.codec.head(stored);
    return projectId === resource.projectId && version === resource.version - 1;
  }

  #write<T extends Resource, R>(t: Table<T, R>, row: T, owned = false): boolean {
    if (!this.#accepts(t, row)) return false;
    t.rows.set(row.id, t.codec.encode(row, owned));
    if (row.version !== 1) return true;
    const evicted = indexNew(t, row.id, row.projectId, this.maxResources);
    if (evicted !== null) this.#renewalLeases.delete(evicted);
    return true;
  }
}

function erasedReceipt(receipt: Receipt): Receipt {
  const { email, phone } = receipt.customer;
  return {
    ...receipt,
    customer: { email: email === null ? null : ERASED, phone: phone === null ? null : ERASED },
  };
}

function invoiceKey(projectId: string, invoiceId: string): string {
  return `${projectId} ${invoiceId}`;
}
