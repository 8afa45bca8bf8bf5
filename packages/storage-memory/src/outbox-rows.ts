import type { DeliveryState, DomainEvent, LoggedAttempt, WebhookEndpoint } from "@kopek/core";

/** One event's delivery to one endpoint, with the log of its attempts (it goes when the delivery goes). */
export interface Delivery {
  readonly eventId: string;
  readonly endpointId: string;
  state: DeliveryState;
  attempts: number;
  nextAttemptAt: number;
  leaseToken: string | null;
  leaseExpiresAt: number;
  lastStatus: number | null;
  lastError: string | null;
  /** Its attempts, oldest first. */
  readonly log: LoggedAttempt[];
}

export interface StoredEvent {
  event: DomainEvent;
  /** Its deliveries by endpoint id. */
  readonly deliveries: Map<string, Delivery>;
  /** How many of them are pending: an event is only evicted at 0. */
  pending: number;
}

/** A pending delivery due at `at` (epoch ms), never attempted. */
export const newDelivery = (eventId: string, endpointId: string, at: number): Delivery => ({
  eventId,
  endpointId,
  state: "pending",
  attempts: 0,
  nextAttemptAt: at,
  leaseToken: null,
  leaseExpiresAt: 0,
  lastStatus: null,
  lastError: null,
  log: [],
});

/** Whether a new event fans out to the endpoint: enabled, of its project, and taking its type. */
export const receives = (endpoint: WebhookEndpoint, event: DomainEvent): boolean =>
  endpoint.enabled &&
  endpoint.projectId === event.projectId &&
  (endpoint.eventTypes === null || endpoint.eventTypes.includes(event.type));
