import type {
  ClaimedDelivery,
  DeliveryAttempt,
  DeliveryClaim,
  DeliveryState,
  DomainEvent,
  EventDeliveries,
  WebhookEndpoint,
} from "@kopek/core";
import { deepCopy } from "./deep-copy.js";

interface Delivery {
  readonly eventId: string;
  readonly endpointId: string;
  state: DeliveryState;
  attempts: number;
  nextAttemptAt: number;
  leaseToken: string | null;
  leaseExpiresAt: number;
  lastStatus: number | null;
  lastError: string | null;
}

const keyOf = (eventId: string, endpointId: string) => `${eventId}/${endpointId}`;

/**
 * Webhook endpoints, outbox events and their deliveries. `append` runs inside the same synchronous
 * step as the resource write it belongs to, so both happen or neither; it fans each event out into
 * one pending delivery per enabled endpoint of the event's project.
 */
export class OutboxStore {
  readonly #endpoints = new Map<string, WebhookEndpoint>();
  readonly #events = new Map<string, DomainEvent>();
  readonly #deliveries = new Map<string, Delivery>();

  append(events: readonly DomainEvent[]): void {
    for (const event of events) {
      this.#events.set(event.id, deepCopy(event));
      for (const endpoint of this.#endpoints.values()) {
        if (endpoint.projectId !== event.projectId || !endpoint.enabled) continue;
        this.#deliveries.set(keyOf(event.id, endpoint.id), {
          eventId: event.id,
          endpointId: endpoint.id,
          state: "pending",
          attempts: 0,
          nextAttemptAt: event.createdAt.getTime(),
          leaseToken: null,
          leaseExpiresAt: 0,
          lastStatus: null,
          lastError: null,
        });
      }
    }
  }

  saveEndpoint(endpoint: WebhookEndpoint): void {
    this.#endpoints.set(endpoint.id, deepCopy(endpoint));
  }

  listEndpoints(projectId: string): WebhookEndpoint[] {
    return [...this.#endpoints.values()].filter((e) => e.projectId === projectId).map(deepCopy);
  }

  removeEndpoint(projectId: string, endpointId: string): boolean {
    if (this.#endpoints.get(endpointId)?.projectId !== projectId) return false;
    this.#endpoints.delete(endpointId);
    for (const [key, d] of this.#deliveries) if (d.endpointId === endpointId) this.#deliveries.delete(key);
    return true;
  }

  disableEndpoint(endpointId: string, at: Date, reason: string): void {
    const endpoint = this.#endpoints.get(endpointId);
    if (endpoint === undefined || !endpoint.enabled) return;
    this.#endpoints.set(endpointId, {
      ...endpoint,
      enabled: false,
      disabledAt: new Date(at),
      disabledReason: reason,
    });
  }

  claim(claim: DeliveryClaim): ClaimedDelivery[] {
    const now = claim.now.getTime();
    const due = [...this.#deliveries.values()].filter(
      (d) =>
        d.state === "pending" &&
        d.nextAttemptAt <= now &&
        d.leaseExpiresAt <= now &&
        this.#endpoints.get(d.endpointId)?.enabled === true,
    );
    due.sort((a, b) => a.nextAttemptAt - b.nextAttemptAt);
    return due.slice(0, claim.limit).map((d) => {
      d.leaseToken = claim.leaseToken;
      d.leaseExpiresAt = claim.leaseExpiresAt.getTime();
      return {
        event: deepCopy(this.#events.get(d.eventId) as DomainEvent),
        endpoint: deepCopy(this.#endpoints.get(d.endpointId) as WebhookEndpoint),
        attempts: d.attempts,
        leaseToken: claim.leaseToken,
      };
    });
  }

  /** False when the lease no longer holds the delivery. */
  record(attempt: DeliveryAttempt): boolean {
    const d = this.#deliveries.get(keyOf(attempt.eventId, attempt.endpointId));
    if (d === undefined || d.state !== "pending" || d.leaseToken !== attempt.leaseToken) return false;
    d.attempts += 1;
    d.state = attempt.outcome === "retry" ? "pending" : attempt.outcome;
    d.nextAttemptAt = attempt.nextAttemptAt?.getTime() ?? d.nextAttemptAt;
    d.leaseToken = null;
    d.leaseExpiresAt = 0;
    d.lastStatus = attempt.status;
    d.lastError = attempt.error;
    const endpoint = this.#endpoints.get(attempt.endpointId);
    if (attempt.outcome === "delivered" && endpoint !== undefined)
      this.#endpoints.set(endpoint.id, { ...endpoint, lastSuccessAt: new Date(attempt.at) });
    return true;
  }

  eventDeliveries(projectId: string): EventDeliveries[] {
    const events = [...this.#events.values()].filter((e) => e.projectId === projectId);
    events.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    return events.map((event) => ({
      event: deepCopy(event),
      deliveries: [...this.#deliveries.values()]
        .filter((d) => d.eventId === event.id)
        .map((d) => ({
          endpointId: d.endpointId,
          state: d.state,
          attempts: d.attempts,
          lastStatus: d.lastStatus,
        })),
    }));
  }

  tables() {
    return {
      webhook_endpoints: [...this.#endpoints.values()].map(deepCopy),
      events: [...this.#events.values()].map(deepCopy),
      webhook_deliveries: [...this.#deliveries.values()].map((d) => ({ ...d })),
    };
  }
}
