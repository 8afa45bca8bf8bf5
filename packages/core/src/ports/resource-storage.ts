import type { ResultAsync } from "neverthrow";
import type { Invoice, InvoiceStatus, Payment, Subscription } from "../domain/model.js";
import type { DomainEvent } from "../events/domain-event.js";
import type { StorageError } from "./storage-error.js";

/**
 * Subscriptions and invoices, read and changed by project. A change is written with the events it
 * caused (the outbox) and the payments it records or settles, in the same atomic step, and only over
 * the version it was based on (each payment by `PaymentStorage.savePayment`'s rule).
 */
export interface ResourceStorage {
  /** The subscription with this id in this project, or null. */
  findSubscription(projectId: string, subscriptionId: string): ResultAsync<Subscription | null, StorageError>;
  /** The invoice with this id in this project, or null. */
  findInvoice(projectId: string, invoiceId: string): ResultAsync<Invoice | null, StorageError>;
  /**
   * The invoice with this id in any project, or null: the one lookup by id alone, used only for
   * legacy payment links (`/pay/{invoiceId}`, handed out before links named the project); everything
   * else uses `findInvoice`.
   */
  findInvoiceById(invoiceId: string): ResultAsync<Invoice | null, StorageError>;
  /** A project's subscriptions, newest first (by id), only those older than `page.before` when set. */
  listSubscriptions(
    projectId: string,
    page: SubscriptionPage,
  ): ResultAsync<readonly Subscription[], StorageError>;
  /**
   * A project's invoices, newest first (by id). `page.status` filters by the status as read at
   * `page.now`: an invoice still `created` whose `expiresAt <= now` counts as `expired`.
   */
  listInvoices(projectId: string, page: InvoicePage): ResultAsync<readonly Invoice[], StorageError>;
  /**
   * Replaces a subscription whose stored version is exactly one less than `subscription.version`,
   * frees its renewal lease, and stores `events` and `payments` with it; `conflict` (writing nothing)
   * when the subscription or any of the payments is not at the version the write was based on.
   */
  saveSubscription(
    subscription: Subscription,
    events: readonly DomainEvent[],
    payments: readonly Payment[],
  ): ResultAsync<void, StorageError>;
  /** Replaces an invoice exactly as `saveSubscription` does (version n over n−1), with its events and payments. */
  saveInvoice(
    invoice: Invoice,
    events: readonly DomainEvent[],
    payments: readonly Payment[],
  ): ResultAsync<void, StorageError>;
}

export interface ResourcePage {
  /** At most this many resources. */
  readonly limit: number;
  /** Only resources with an id lower than this one (older: ids are UUIDv7). */
  readonly before: string | null;
}

/** Subscriptions, only those of one customer (API.md 11.1) when `customerId` is set. */
export interface SubscriptionPage extends ResourcePage {
  readonly customerId?: string | null;
}

export interface InvoicePage extends ResourcePage {
  readonly status: InvoiceStatus | null;
  /** Only the invoices of this customer (API.md 11.1); null or absent: all. */
  readonly customerId?: string | null;
  readonly now: Date;
}
