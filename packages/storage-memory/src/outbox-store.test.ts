import type { DomainEvent, WebhookEndpoint } from "@kopek/core";
import { describe, expect, it } from "vitest";
import { eventDeliveries } from "./event-log.js";
import { OutboxStore } from "./outbox-store.js";

const PROJECT = "p";
const at = new Date("2026-01-01T00:00:00Z");
const endpoint = (id: string): WebhookEndpoint => ({
  id,
  projectId: PROJECT,
  url: `https://hooks.example/${id}`,
  secret: "whsec_x",
  previousSecret: null,
  previousSecretExpiresAt: null,
  eventTypes: null,
  description: null,
  enabled: true,
  createdAt: at,
  disabledAt: null,
  disabledReason: null,
  lastSuccessAt: null,
});
const event = (n: number): DomainEvent => ({
  id: `e${String(n).padStart(6, "0")}`,
  projectId: PROJECT,
  type: "invoice.paid",
  createdAt: at,
  data: {},
});

let round = 0;

/** Claims every due delivery and records `outcome` for those `pick` chooses; the others' leases run out. */
function finish(store: OutboxStore, outcome: "delivered" | "failed", pick: (eventId: string) => boolean) {
  const leaseToken = `l${++round}`;
  const now = new Date(at.getTime() + round * 2000);
  const claimed = store.claim({
    now,
    limit: 1_000_000,
    leaseToken,
    leaseExpiresAt: new Date(now.getTime() + 1000),
  });
  for (const { event: e, endpoint: ep } of claimed.filter((c) => pick(c.event.id)))
    store.record({
      id: `a${round}${e.id}`,
      projectId: e.projectId,
      eventId: e.id,
      endpointId: ep.id,
      leaseToken,
      at,
      outcome,
      nextAttemptAt: null,
      status: 200,
      error: null,
      durationMs: 5,
    });
}

const eventIds = (store: OutboxStore) => store.tables().events.map((e) => e.id);
const deliveryStates = (store: OutboxStore) =>
  store.tables().webhook_deliveries.map((d) => `${d.eventId}/${d.endpointId}:${d.state}`);

describe("the memory outbox stays bounded", () => {
  it("drops the oldest finished events and deliveries past the limits, never a pending one", () => {
    const store = new OutboxStore({ maxEvents: 3, maxDeliveries: 3 });
    store.saveEndpoint(endpoint("a"));
    store.append([0, 1, 2, 3, 4].map(event));
    // All pending: nothing may go, so the limits are exceeded.
    expect(eventIds(store)).toHaveLength(5);
    finish(store, "delivered", (id) => id !== "e000001");
    // e000001 is still pending: it stays; of the finished ones the newest two stay.
    expect(eventIds(store)).toEqual(["e000001", "e000003", "e000004"]);
    expect(deliveryStates(store)).toEqual([
      "e000001/a:pending",
      "e000003/a:delivered",
      "e000004/a:delivered",
    ]);
    // It is still delivered normally, and now finished last: e000003, finished longest ago, goes first.
    finish(store, "failed", () => true);
    store.append([event(5)]);
    expect(eventIds(store)).toEqual(["e000001", "e000004", "e000005"]);
    expect(deliveryStates(store)).toEqual(["e000001/a:failed", "e000004/a:delivered", "e000005/a:pending"]);
  });

  it("drops finished deliveries before their events when deliveries are the tighter limit", () => {
    const store = new OutboxStore({ maxEvents: 10, maxDeliveries: 2 });
    store.saveEndpoint(endpoint("a"));
    store.saveEndpoint(endpoint("b"));
    store.append([event(0), event(1)]);
    finish(store, "delivered", () => true);
    expect(eventIds(store)).toEqual(["e000000", "e000001"]);
    expect(store.tables().webhook_deliveries).toHaveLength(2);
    expect(eventDeliveries(store.storedEvents(), PROJECT).map((e) => e.deliveries.length)).toEqual([0, 2]);
  });

  it("never drops a finished delivery queued again (redelivered) while it is pending", () => {
    const store = new OutboxStore({ maxEvents: 10, maxDeliveries: 2 });
    store.saveEndpoint(endpoint("a"));
    store.append([event(0), event(1)]);
    finish(store, "delivered", () => true);
    expect(store.redeliver(PROJECT, "e000000", ["a"], at)).toEqual(["a"]);
    // Three deliveries, two allowed: e000000's finished first but is pending again, so e000001's goes.
    store.append([event(2)]);
    expect(deliveryStates(store)).toEqual(["e000000/a:pending", "e000002/a:pending"]);
    finish(store, "delivered", () => true);
    expect(deliveryStates(store)).toEqual(["e000000/a:delivered", "e000002/a:delivered"]);
  });

  it("events without endpoints count too; removing an endpoint frees its pending events", () => {
    const store = new OutboxStore({ maxEvents: 2, maxDeliveries: 100 });
    store.append([event(0), event(1), event(2)]);
    expect(eventIds(store)).toEqual(["e000001", "e000002"]);
    store.saveEndpoint(endpoint("a"));
    store.append([event(3), event(4)]);
    expect(eventIds(store)).toEqual(["e000003", "e000004"]);
    expect(store.removeEndpoint(PROJECT, "a")).toBe(true);
    store.append([event(5)]);
    expect(eventIds(store)).toEqual(["e000004", "e000005"]);
    expect(store.tables().webhook_deliveries).toEqual([]);
  });

  it("stays linear over a long run (eviction is a queue pop, not a scan)", () => {
    const store = new OutboxStore({ maxEvents: 1000, maxDeliveries: 1000 });
    store.saveEndpoint(endpoint("a"));
    const started = performance.now();
    for (let batch = 0; batch < 200; batch++) {
      store.append(Array.from({ length: 500 }, (_, i) => event(batch * 500 + i)));
      finish(store, "delivered", () => true);
    }
    expect(eventIds(store)).toHaveLength(1000);
    expect(store.tables().webhook_deliveries).toHaveLength(1000);
    expect(performance.now() - started).toBeLessThan(10_000);
  });
});
