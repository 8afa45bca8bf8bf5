import type { ResultAsync } from "neverthrow";
import type { StorageError } from "./storage-error.js";

/**
 * Deleting a project (`kopek projects delete`, API.md 11.1): removed with everything it has while it
 * holds no money record, else kept, marked deleted, its money records as they are.
 */
export interface ProjectDeletionStorage {
  /**
   * In one atomic step: when the project holds no invoice, subscription, payment or refund, deletes
   * it with its API keys, customers, events, webhook endpoints and deliveries and idempotency records
   * (`deleted`, how many of each); otherwise deletes nothing (`has_money`, how many of each kind).
   */
  deleteProject(projectId: string): ResultAsync<ProjectDeletion, StorageError>;
  /**
   * Marks the project deleted from `at` on (its `deletedAt`), once: a project marked already keeps its
   * first time. From then on it takes no new API key (`addApiKey`), and `saveProject` never unmarks
   * it. Answers its `deletedAt`, or null when no such project exists.
   */
  markProjectDeleted(projectId: string, at: Date): ResultAsync<Date | null, StorageError>;
}

/** What a project holds that API.md 11.1 keeps: the money records. */
export interface MoneyRecordCounts {
  readonly invoices: number;
  readonly subscriptions: number;
  readonly payments: number;
  readonly refunds: number;
}

/** The rows a project's deletion removed, by kind (the project's own row besides). */
export interface RemovedProjectRows {
  readonly apiKeys: number;
  readonly customers: number;
  readonly events: number;
  readonly webhookEndpoints: number;
  readonly webhookDeliveries: number;
  readonly idempotencyRecords: number;
}

export type ProjectDeletion =
  | { readonly kind: "deleted"; readonly removed: RemovedProjectRows }
  | { readonly kind: "has_money"; readonly money: MoneyRecordCounts }
  | { readonly kind: "not_found" };

/** Whether any money record is counted. */
export function holdsMoney(money: MoneyRecordCounts): boolean {
  return money.invoices + money.subscriptions + money.payments + money.refunds > 0;
}
