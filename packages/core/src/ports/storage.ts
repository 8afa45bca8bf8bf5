import type { ResultAsync } from "neverthrow";
import type { CountStorage } from "./count-storage.js";
import type { CustomerStorage } from "./customer-storage.js";
import type { EventLogStorage } from "./event-log-storage.js";
import type { IdempotencyStorage } from "./idempotency-storage.js";
import type { OutboxStorage } from "./outbox-storage.js";
import type { PaymentStorage } from "./payment-storage.js";
import type { ProjectDeletionStorage } from "./project-deletion-storage.js";
import type { ProjectStorage } from "./project-storage.js";
import type { RefundStorage } from "./refund-storage.js";
import type { ResourceStorage } from "./resource-storage.js";
import type { ScheduleStorage } from "./schedule-storage.js";
import type { StorageError } from "./storage-error.js";

/**
 * Kopek's storage port, composed of one port per concern. Every method is required and takes and
 * returns plain data; every failure is a `StorageError`, never a thrown driver error. Adapters:
 * `@kopek/storage-memory`, `@kopek/storage-postgres`.
 */
export interface Storage
  extends ProjectStorage,
    ProjectDeletionStorage,
    IdempotencyStorage,
    ResourceStorage,
    PaymentStorage,
    RefundStorage,
    ScheduleStorage,
    OutboxStorage,
    EventLogStorage,
    CustomerStorage,
    CountStorage {
  /** Answers when the storage can serve requests (readiness). */
  checkHealth(): ResultAsync<void, StorageError>;
}

/**
 * The back door the contract suite uses to see what an adapter really persisted: every stored row,
 * as plain values, by table. Never used by Kopek itself.
 */
export interface InspectableStorage extends Storage {
  inspect(): Promise<Readonly<Record<string, readonly Readonly<Record<string, unknown>>[]>>>;
}
