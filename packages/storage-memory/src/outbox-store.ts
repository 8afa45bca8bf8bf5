import type {
  ClaimedDelivery,
  DeliveryAttempt,
  DeliveryClaim,
  DeliveryState,
  DomainEvent,
  EventDeliveries,
  WebhookEndpoint,
} from "@kopek/core";
import { eraseJsonStrings } from "@kopek/core";
import { deepCopy } from "./deep-copy.js";
import { Fifo } from "./fifo.js";

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

interface StoredEvent {
  event: DomainEvent;
  /** Its deliveries by endpoint id. */
  readonly deliveries: Map<string, Delivery>;
  /** How many of them are pending: an event is only evicted at 0. */
  pending: number;
}

export interface OutboxLimits {
  /** Events kept; past that the ones whose deliveries all finished longest ago are dropped. */
  readonly maxEvents: number;
  /** Deliveries kept; past that the ones that finished (delivered or failed) longest ago are dropped. */
  readonly maxDeliveries: number;
}

/**
 * Webhook endpoints, outbox events and their deliveries. `append` runs inside the same synchronous
 * step as the resource write it belongs to, so both happen or neither; it fans each event out into
 * one pending delivery per enabled endpoint of the event's project.
 *
 * Bounded for a long-running process: finished deliveries, and events with no pending delivery, are
 * queued in the order they finished and dropped oldest first once there are more than the limits.
 * A pending delivery, and its event, are never dropped (the limits may then be exceeded).
 */
export class OutboxStore {
  readonly #endpoints = new Map<string, WebhookEndpoint>();
  readonly #events = new Map<string, StoredEvent>();
  /** Only the pending deliveries: what `claim` scans, however many finished ones are kept. */
  readonly #pending = new Set<Delivery>();
  #deliveryCount = 0;
  /** Finished deliveries, oldest first; entries already dropped with their event are skipped. */
  readonly #finishedDeliveries = new Fifo<Delivery>();
  /** Events without a pending delivery, in the order they got there. */
  readonly #finishedEvents = new Fifo<string>();

  constructor(private readonly limits: OutboxLimits) {}

  append(events: readonly DomainEvent[]): void {
    for (const event of events) {
      const stored: StoredEvent = { event: deepCopy(event), deliveries: new Map(), pending: 0 };
      this.#events.set(event.id, stored);
      for (const endpoint of this.#endpoints.values()) {
        if (endpoint.projectId !== event.projectId || !endpoint.enabled) continue;
        const delivery: Delivery = {
          eventId: event.id,
          endpointId: endpoint.id,
          state: "pending",
          attempts: 0,
          nextAttemptAt: event.createdAt.getTime(),
          leaseToken: null,
          leaseExpiresAt: 0,
          lastStatus: null,
          lastError: null,
        };
        stored.deliveries.set(endpoint.id, delivery);
        stored.pending += 1;
        this.#pending.add(delivery);
        this.#deliveryCount += 1;
      }
      if (stored.pending === 0) this.#finishedEvents.push(event.id);
    }
    this.#evict();
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
    // A scan, but only at an operator's command.
    for (const stored of this.#events.values()) {
      const delivery = stored.deliveries.get(endpointId);
      if (delivery === undefined) continue;
      stored.deliveries.delete(endpointId);
      this.#deliveryCount -= 1;
      if (delivery.state === "pending") this.#settle(stored, delivery);
    }
    return true;
  }

  disableEndpoint(projectId: string, endpointId: string, at: Date, reason: string): void {
    const endpoint = this.#endpoints.get(endpointId);
    if (endpoint === undefined || endpoint.projectId !== projectId || !endpoint.enabled) return;
    this.#endpoints.set(endpointId, {
      ...endpoint,
      enabled: false,
      disabledAt: new Date(at),
      disabledReason: reason,
    });
  }

  claim(claim: DeliveryClaim): ClaimedDelivery[] {
    const now = claim.now.getTime();
    const due = [...this.#pending].filter(
      (d) =>
        d.nextAttemptAt <= now &&
        d.leaseExpiresAt <= now &&
        this.#endpoints.get(d.endpointId)?.enabled === true,
    );
    due.sort((a, b) => a.nextAttemptAt - b.nextAttemptAt);
    return due.slice(0, claim.limit).map((d) => {
      d.leaseToken = claim.leaseToken;
      d.leaseExpiresAt = claim.leaseExpiresAt.getTime();
      return {
        event: deepCopy(this.#events.get(d.eventId)?.event as DomainEvent),
        endpoint: deepCopy(this.#endpoints.get(d.endpointId) as WebhookEndpoint),
        attempts: d.attempts,
        leaseToken: claim.leaseToken,
      };
    });
  }

  /** False when the lease no longer holds the delivery. */
  record(attempt: DeliveryAttempt): boolean {
    const stored = this.#events.get(attempt.eventId);
    const d = stored?.deliveries.get(attempt.endpointId);
    if (
      stored === undefined ||
      stored.event.projectId !== attempt.projectId ||
      d === undefined ||
      d.state !== "pending" ||
      d.leaseToken !== attempt.leaseToken
    )
      return false;
    d.attempts += 1;
    d.nextAttemptAt = attempt.nextAttemptAt?.getTime() ?? d.nextAttemptAt;
    d.leaseToken = null;
    d.leaseExpiresAt = 0;
    d.lastStatus = attempt.status;
    d.lastError = attempt.error;
    const endpoint = this.#endpoints.get(attempt.endpointId);
    if (attempt.outcome === "delivered" && endpoint !== undefined)
      this.#endpoints.set(endpoint.id, { ...endpoint, lastSuccessAt: new Date(attempt.at) });
    if (attempt.outcome !== "retry") {
      d.state = attempt.outcome;
      this.#finishedDeliveries.push(d);
      this.#settle(stored, d);
      this.#evict();
    }
    return true;
  }

  /** The pending deliveries, and when the oldest of their events was created (null: none pending). */
  countPending(): { readonly pending: number; readonly oldestEventAt: Date | null } {
    let oldest: number | null = null;
    for (const d of this.#pending) {
      const created = this.#events.get(d.eventId)?.event.createdAt.getTime();
      if (created !== undefined && (oldest === null || created < oldest)) oldest = created;
    }
    return { pending: this.#pending.size, oldestEventAt: oldest === null ? null : new Date(oldest) };
  }

  eventDeliveries(projectId: string): EventDeliveries[] {
    const events = [...this.#events.values()].filter((s) => s.event.projectId === projectId);
    events.sort((a, b) => (a.event.id < b.event.id ? -1 : a.event.id > b.event.id ? 1 : 0));
    return events.map((stored) => ({
      event: deepCopy(stored.event),
      deliveries: [...stored.deliveries.values()].map((d) => ({
        endpointId: d.endpointId,
        state: d.state,
        attempts: d.attempts,
        lastStatus: d.lastStatus,
      })),
    }));
  }

  /** Replaces every JSON string equal to one of `values` in a project's events by "erased" (API.md 11.1). */
  erase(projectId: string, values: readonly string[]): void {
    for (const stored of this.#events.values()) {
      if (stored.event.projectId !== projectId) continue;
      const data = JSON.stringify(stored.event.data);
      const erased = eraseJsonStrings(data, values);
      if (erased !== data) stored.event = { ...stored.event, data: JSON.parse(erased) };
    }
  }

  tables() {
    const stored = [...this.#events.values()];
    return {
      webhook_endpoints: [...this.#endpoints.values()].map(deepCopy),
      events: stored.map((s) => deepCopy(s.event)),
      webhook_deliveries: stored.flatMap((s) => [...s.deliveries.values()].map((d) => ({ ...d }))),
    };
  }

  /** A pending delivery stopped being pending (finished, or removed with its endpoint). */
  #settle(stored: StoredEvent, delivery: Delivery): void {
    this.#pending.delete(delivery);
    stored.pending -= 1;
    if (stored.pending === 0) this.#finishedEvents.push(stored.event.id);
  }

  #evict(): void {
    while (this.#events.size > this.limits.maxEvents) {
      const id = this.#finishedEvents.shift();
      if (id === undefined) break;
      const stored = this.#events.get(id);
      // Gone already, or (never, today) pending again: not this one's turn.
      if (stored === undefined || stored.pending > 0) continue;
      this.#events.delete(id);
      this.#deliveryCount -= stored.deliveries.size;
    }
    while (this.#deliveryCount > this.limits.maxDeliveries) {
      const d = this.#finishedDeliveries.shift();
      if (d === undefined) break;
      const deliveries = this.#events.get(d.eventId)?.deliveries;
      // Dropped already with its event or its endpoint.
      if (deliveries?.get(d.endpointId) !== d) continue;
      deliveries.delete(d.endpointId);
      this.#deliveryCount -= 1;
    }
  }
}
