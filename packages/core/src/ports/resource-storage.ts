import type { ResultAsync } from "neverthrow";
import type { Invoice, InvoiceStatus, Subscription } from "../domain/model.js";
import type { DomainEvent } from "../events/domain-event.js";
import type { StorageError } from "./storage-error.js";

/**
 * Subscriptions and invoices, read and changed by project. A change is written with the events it
 * caused, in the same atomic step (the outbox), and only over the version it was based on.
 */
export interface ResourceStorage {
  /** The subscription with this id in this project, or null. */
  findSubscription(projectId: string, subscriptionId: string): ResultAsync<Subscription | null, StorageError>;
  /** The invoice with this id in this project, or null. */
  findInvoice(projectId: string, invoiceId: string): ResultAsync<Invoice | null, StorageError>;
  /** The invoice with this id in any project, or null: the hosted payment page knows only the id. */
  findInvoiceById(invoiceId: string): ResultAsync<Invoice | null, StorageError>;
  /** A project's subscriptions, newest first (by id), only those older than `page.before` when set. */
  listSubscriptions(
    projectId: string,
    page: ResourcePage,
  ): ResultAsync<readonly Subscription[], StorageError>;
  /**
   * A project's invoices, newest first (by id). `page.status` filters by the status as read at
   * `page.now`: an invoice still `created` whose `expiresAt <= now` counts as `expired`.
   */
  listInvoices(projectId: string, page: InvoicePage): ResultAsync<readonly Invoice[], StorageError>;
  /**
   * Replaces a subscription whose stored version is exactly one less than `subscription.version`,
   * frees its renewal lease, and stores `events` with it; `conflict` (writing nothing) otherwise.
   */
  saveSubscription(
    subscription: Subscription,
    events: readonly DomainEvent[],
  ): ResultAsync<void, StorageError>;
  /** Replaces an invoice exactly as `saveSubscription` does (version n over n−1), with its events. */
  saveInvoice(invoice: Invoice, events: readonly DomainEvent[]): ResultAsync<void, StorageError>;
}

export interface ResourcePage {
  /** At most this many resources. */
  readonly limit: number;
  /** Only resources with an id lower than this one (older: ids are UUIDv7). */
  readonly before: string | null;
}

export interface InvoicePage extends ResourcePage {
  readonly status: InvoiceStatus | null;
  readonly now: Date;
}
