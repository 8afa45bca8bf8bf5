import type { ResultAsync } from "neverthrow";
import type { DomainEvent, EventType } from "../events/domain-event.js";
import type { DeliveryAttempt } from "./outbox-storage.js";
import type { StorageError } from "./storage-error.js";

/**
 * The events a project's webhooks carry and the log of every delivery attempt, as the API reads them
 * (API.md 12): lists newest first, keyset-paged by id (UUIDv7, time-ordered), like every list.
 */
export interface EventLogStorage {
  /** The event with this id in this project, or null. */
  findEvent(projectId: string, eventId: string): ResultAsync<DomainEvent | null, StorageError>;
  /** A project's events, newest first. */
  listEvents(projectId: string, page: EventPage): ResultAsync<readonly DomainEvent[], StorageError>;
  /** The attempts to deliver to one endpoint, newest first. */
  listDeliveryAttempts(
    projectId: string,
    endpointId: string,
    page: AttemptPage,
  ): ResultAsync<readonly LoggedAttempt[], StorageError>;
  /**
   * Queues an event again to each of these endpoints (all of the event's project): a delivery due at
   * `now` with its retry schedule started afresh, made when the endpoint never had one. A delivery in
   * flight keeps its lease. Endpoints not of the project are skipped; answers the ids queued.
   */
  redeliverEvent(
    projectId: string,
    eventId: string,
    endpointIds: readonly string[],
    now: Date,
  ): ResultAsync<readonly string[], StorageError>;
  /**
   * Deletes at most `limit` events recorded before `before` (with their deliveries and attempts, in
   * any project); returns how many went. Events are kept 30 days (API.md 12).
   */
  purgeEventsBefore(before: Date, limit: number): ResultAsync<number, StorageError>;
}

export interface EventPage {
  readonly limit: number;
  /** Only events with an id lower than this one; null for the first page. */
  readonly before: string | null;
  /** Only events of this type; null: all. */
  readonly type: EventType | null;
  /** Only events recorded at or after this moment; null: all. */
  readonly since: Date | null;
}

export interface AttemptPage {
  readonly limit: number;
  readonly before: string | null;
  /** Only attempts with this outcome; null: all. */
  readonly outcome: DeliveryAttempt["outcome"] | null;
}

/** One attempt as the deliveries log keeps it. */
export interface LoggedAttempt {
  readonly id: string;
  readonly eventId: string;
  readonly eventType: EventType;
  readonly endpointId: string;
  readonly at: Date;
  readonly outcome: DeliveryAttempt["outcome"];
  readonly status: number | null;
  readonly error: string | null;
  readonly durationMs: number;
}
