import type { ResultAsync } from "neverthrow";
import type { CustomerRecord } from "../domain/model.js";
import type { DomainEvent } from "../events/domain-event.js";
import type { ResourcePage } from "./resource-storage.js";
import type { StorageError } from "./storage-error.js";

/**
 * Customers (API.md 11.1), read by project. Every write stores its events in the same atomic step
 * (the outbox), only over the version it was based on, and keeps `externalId` unique per project.
 */
export interface CustomerStorage {
  /** The customer with this id in this project, or null. */
  findCustomer(projectId: string, customerId: string): ResultAsync<CustomerRecord | null, StorageError>;
  /** A project's customers, newest first (by id), filtered as `page` says. */
  listCustomers(
    projectId: string,
    page: CustomerListPage,
  ): ResultAsync<readonly CustomerRecord[], StorageError>;
  /**
   * Writes a customer with its events: version 1 creates it, version n replaces a stored n−1. Nothing
   * is written when another customer of the project has its `externalId` (`taken`, naming that one),
   * when a new one's id is already stored (`exists`, the stored one: a re-execution), or when the
   * stored version is not n−1 (`conflict`, an error).
   */
  saveCustomer(
    customer: CustomerRecord,
    events: readonly DomainEvent[],
  ): ResultAsync<CustomerWrite, StorageError>;
  /**
   * Erases a customer's personal data (API.md 11.1, 152-FZ) in one atomic step: writes `customer`
   * (version n over a stored n−1, its email, phone and name already null) with its events, and replaces
   * by "erased" the email and phone of every receipt contact, and of the inline `customer`, of the
   * project's invoices and subscriptions with this `customerId` (each one version on), and every JSON
   * string exactly equal to one of `values` in the project's stored events and idempotency responses.
   * Money records are left as they are. `conflict` (writing nothing) on a stale version.
   */
  eraseCustomer(
    customer: CustomerRecord,
    values: readonly string[],
    events: readonly DomainEvent[],
  ): ResultAsync<void, StorageError>;
}

/** The text every erased contact becomes (API.md 11.1). */
export const ERASED = "erased";

/** `json` with every JSON string exactly equal to one of `values` replaced by `"erased"`. */
export function eraseJsonStrings(json: string, values: readonly string[]): string {
  let text = json;
  for (const value of values) text = text.split(JSON.stringify(value)).join(JSON.stringify(ERASED));
  return text;
}

/** What `saveCustomer` did. */
export type CustomerWrite =
  | { readonly kind: "saved" }
  | { readonly kind: "exists"; readonly customer: CustomerRecord }
  | { readonly kind: "taken"; readonly customerId: string };

export interface CustomerListPage extends ResourcePage {
  /** Only the customer with this `externalId`, exactly. */
  readonly externalId: string | null;
  /** Only customers with this `email`, exactly. */
  readonly email: string | null;
}
