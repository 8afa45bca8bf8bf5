import type {
  ClaimedDelivery,
  DeliveryAttempt,
  DeliveryClaim,
  DomainEvent,
  WebhookEndpoint,
} from "@kopek/core";
import { eraseJsonStrings } from "@kopek/core";
import { deepCopy } from "./deep-copy.js";
import { Fifo } from "./fifo.js";
import { type Delivery, newDelivery, receives, type StoredEvent } from "./outbox-rows.js";

export interface OutboxLimits {
  /** Events kept; past that the ones whose deliveries all finished longest ago are dropped. */
  readonly maxEvents: number;
  /** Deliveries kept; past that the ones that finished (delivered or failed) longest ago are dropped. */
  readonly maxDeliveries: number;
}

/**
 * Webhook endpoints, outbox events and their deliveries. `append` runs inside the same synchronous
 * step as the resource write it belongs to, so both happen or neither; it fans each event out into
 * one pending delivery per enabled endpoint of the event's project that takes its type. Each delivery
 * keeps the log of its attempts, so the log goes with it (its endpoint removed, its event purged).
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
        if (!receives(endpoint, event)) continue;
        const delivery = newDelivery(event.id, endpoint.id, event.createdAt.getTime());
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
    // `lastSuccessAt` is the dispatcher's: a save neither sets nor clears it.
    const lastSuccessAt = this.#endpoints.get(endpoint.id)?.lastSuccessAt ?? null;
    this.#endpoints.set(endpoint.id, { ...deepCopy(endpoint), lastSuccessAt });
  }

  findEndpoint(projectId: string, endpointId: string): WebhookEndpoint | null {
    const endpoint = this.#endpoints.get(endpointId);
    return endpoint?.projectId === projectId ? deepCopy(endpoint) : null;
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
    const { id, endpointId, eventId, at, outcome, status, error, durationMs } = attempt;
    const eventType = stored.event.type;
    d.log.push({ id, eventId, eventType, endpointId, at: new Date(at), outcome, status, error, durationMs });
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

  /** The stored events by id, for the event log's reads (event-log.ts), which change nothing. */
  storedEvents(): ReadonlyMap<string, Readonly<StoredEvent>> {
    return this.#events;
  }

  /**
   * `redeliverEvent`: each endpoint of the event's project gets its delivery pending again, due at
   * `now` with no attempt counted (a new one when it had none); a lease in flight is left to finish.
   */
  redeliver(projectId: string, eventId: string, endpointIds: readonly string[], now: Date): string[] {
    const stored = this.#events.get(eventId);
    if (stored?.event.projectId !== projectId) return [];
    const queued = [...new Set(endpointIds)].filter((id) => this.#endpoints.get(id)?.projectId === projectId);
    for (const endpointId of queued) {
      let delivery = stored.deliveries.get(endpointId);
      if (delivery === undefined) {
        delivery = newDelivery(eventId, endpointId, now.getTime());
        stored.deliveries.set(endpointId, delivery);
        this.#deliveryCount += 1;
      } else if (delivery.state === "pending") {
        // Waiting, or in flight (its lease left to finish): counted as pending already.
        delivery.attempts = 0;
        delivery.nextAttemptAt = now.getTime();
        continue;
      }
      Object.assign(delivery, { state: "pending", attempts: 0, nextAttemptAt: now.getTime() });
      stored.pending += 1;
      this.#pending.add(delivery);
    }
    this.#evict();
    return queued;
  }

  /** `purgeEventsBefore`: up to `limit` events created before `before`, with their deliveries. */
  purge(before: Date, limit: number): number {
    let purged = 0;
    for (const [id, stored] of this.#events) {
      if (!(purged < limit)) break;
      if (stored.event.createdAt.getTime() >= before.getTime()) continue;
      for (const delivery of stored.deliveries.values()) this.#pending.delete(delivery);
      this.#deliveryCount -= stored.deliveries.size;
      this.#events.delete(id);
      purged += 1;
    }
    return purged;
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

  /** Drops a project's endpoints, events and their deliveries (its deletion); how many of each. */
  deleteProject(projectId: string) {
    const removed = { webhookEndpoints: 0, events: 0, webhookDeliveries: 0 };
    for (const endpoint of this.#endpoints.values())
      if (endpoint.projectId === projectId && this.#endpoints.delete(endpoint.id))
        removed.webhookEndpoints += 1;
    // A project's deliveries are all of its own events. Their ids left in the eviction queues are
    // skipped there, as those of events and deliveries dropped otherwise are.
    for (const [id, stored] of this.#events) {
      if (stored.event.projectId !== projectId) continue;
      for (const delivery of stored.deliveries.values()) this.#pending.delete(delivery);
      removed.webhookDeliveries += stored.deliveries.size;
      this.#deliveryCount -= stored.deliveries.size;
      this.#events.delete(id);
      removed.events += 1;
    }
    return removed;
  }

  tables() {
    const stored = [...this.#events.values()];
    return {
      webhook_endpoints: [...this.#endpoints.values()].map(deepCopy),
      events: stored.map((s) => deepCopy(s.event)),
      webhook_deliveries: stored.flatMap((s) => [...s.deliveries.values()].map(({ log: _, ...d }) => d)),
      webhook_delivery_attempts: stored.flatMap((s) =>
        [...s.deliveries.values()].flatMap((d) => d.log.map((a) => ({ projectId: s.event.projectId, ...a }))),
      ),
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
      // Dropped already with its event or its endpoint, or pending again (redelivered).
      if (deliveries?.get(d.endpointId) !== d || d.state === "pending") continue;
      deliveries.delete(d.endpointId);
      this.#deliveryCount -= 1;
    }
  }
}
