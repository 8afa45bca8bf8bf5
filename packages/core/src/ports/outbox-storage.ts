import type { ResultAsync } from "neverthrow";
import type { DomainEvent, EventType } from "../events/domain-event.js";
import type { StorageError } from "./storage-error.js";

/**
 * Webhook endpoints, and deliveries of outbox events. Events are written by the resource writes of
 * the other ports (never on their own); each write fans an event out into one pending delivery per
 * enabled endpoint of its project, in the same atomic step.
 */
export interface OutboxStorage {
  /**
   * Creates an endpoint, or replaces the one with this id (url, secrets, event types, description,
   * enabled state); its `lastSuccessAt` is the dispatcher's and is never written here.
   */
  saveWebhookEndpoint(endpoint: WebhookEndpoint): ResultAsync<void, StorageError>;
  /** The endpoint with this id in this project, or null. */
  findWebhookEndpoint(
    projectId: string,
    endpointId: string,
  ): ResultAsync<WebhookEndpoint | null, StorageError>;
  /** A project's endpoints, oldest first, disabled ones included. */
  listWebhookEndpoints(projectId: string): ResultAsync<readonly WebhookEndpoint[], StorageError>;
  /** Deletes an endpoint and its pending deliveries; false when there was none. */
  removeWebhookEndpoint(projectId: string, endpointId: string): ResultAsync<boolean, StorageError>;
  /** Disables an endpoint that keeps failing: its pending deliveries wait until it is enabled again. */
  disableWebhookEndpoint(
    projectId: string,
    endpointId: string,
    at: Date,
    reason: string,
  ): ResultAsync<void, StorageError>;
  /**
   * Leases up to `limit` pending deliveries due at `now` (next attempt passed, lease free or expired)
   * to enabled endpoints, earliest first. Two dispatchers never hold the same delivery at once.
   */
  claimDueDeliveries(claim: DeliveryClaim): ResultAsync<readonly ClaimedDelivery[], StorageError>;
  /** Records an attempt's result and frees the lease; `lease_lost` (writing nothing) when the lease is gone. */
  recordDeliveryAttempt(attempt: DeliveryAttempt): ResultAsync<void, StorageError>;
  /** Every event of a project and the state of its deliveries, oldest first (operators, tests). */
  listEventDeliveries(projectId: string): ResultAsync<readonly EventDeliveries[], StorageError>;
}

export interface WebhookEndpoint {
  readonly id: string;
  readonly projectId: string;
  readonly url: string;
  /** `whsec_…`; encrypted at rest where the storage supports it. */
  readonly secret: string;
  /**
   * The secret a rotation replaced, still signing beside `secret` until `previousSecretExpiresAt`
   * (API.md 12: both signatures sent for 24 h); null when there is none. Encrypted like `secret`.
   */
  readonly previousSecret: string | null;
  readonly previousSecretExpiresAt: Date | null;
  /** The event types it receives, or null for every type (those added later too). */
  readonly eventTypes: readonly EventType[] | null;
  /** The operator's note on what it is for; null when none. */
  readonly description: string | null;
  readonly enabled: boolean;
  readonly createdAt: Date;
  readonly disabledAt: Date | null;
  readonly disabledReason: string | null;
  /** The last 2xx any delivery to it got; tells a dead endpoint from one that failed once. */
  readonly lastSuccessAt: Date | null;
}

export interface DeliveryClaim {
  readonly now: Date;
  readonly limit: number;
  readonly leaseToken: string;
  readonly leaseExpiresAt: Date;
}

export interface ClaimedDelivery {
  readonly event: DomainEvent;
  readonly endpoint: WebhookEndpoint;
  /** Attempts made before this one. */
  readonly attempts: number;
  readonly leaseToken: string;
}

export interface DeliveryAttempt {
  /** The attempt's own id (UUIDv7): the deliveries log lists attempts by it. */
  readonly id: string;
  /** The project of the event and the endpoint. */
  readonly projectId: string;
  readonly eventId: string;
  readonly endpointId: string;
  readonly leaseToken: string;
  readonly at: Date;
  /** `delivered`: a 2xx; `retry`: try again at `nextAttemptAt`; `failed`: the schedule ran out. */
  readonly outcome: "delivered" | "retry" | "failed";
  readonly nextAttemptAt: Date | null;
  /** The HTTP status, or null when there was no answer. */
  readonly status: number | null;
  /** Why it failed, for operators (never the secret). */
  readonly error: string | null;
  /** How long the request took, whole milliseconds. */
  readonly durationMs: number;
}

export type DeliveryState = "pending" | "delivered" | "failed";

export interface EventDeliveries {
  readonly event: DomainEvent;
  readonly deliveries: readonly {
    readonly endpointId: string;
    readonly state: DeliveryState;
    readonly attempts: number;
    readonly lastStatus: number | null;
  }[];
}
