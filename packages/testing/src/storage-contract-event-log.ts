import { randomUUID } from "node:crypto";
import type {
  AttemptPage,
  DeliveryAttempt,
  DomainEvent,
  EventPage,
  EventType,
  LoggedAttempt,
} from "@kopek/core";
import { describe, expect, it } from "vitest";
import { sampleWebhookEndpoint } from "./fixtures.js";
import {
  attemptOf,
  claimOf,
  eventOf,
  rowsContaining,
  type StorageFactory,
  savedProject,
  unwrap,
  unwrapErr,
  writeEvents,
} from "./storage-contract-support.js";

const AT = Date.parse("2026-02-01T10:00:00.123Z");
const HOUR_MS = 60 * 60 * 1000;
const ALL_EVENTS: EventPage = { limit: 100, before: null, type: null, since: null };
const ALL_ATTEMPTS: AttemptPage = { limit: 100, before: null, outcome: null };

/** An attempt as the log answers it. */
const logged = (a: DeliveryAttempt, eventType: EventType): LoggedAttempt => ({
  id: a.id,
  eventId: a.eventId,
  eventType,
  endpointId: a.endpointId,
  at: a.at,
  outcome: a.outcome,
  status: a.status,
  error: a.error,
  durationMs: a.durationMs,
});

/** The events a project's webhooks carried and the log of their attempts (API.md 12): reads, redelivery, the purge. */
export function describeEventLogContract(factory: StorageFactory): void {
  describe("the event log", () => {
    it("finds and lists a project's events newest first, paged by id, by type and since a time", async () => {
      const storage = await factory();
      const [project, other] = [await savedProject(storage), await savedProject(storage)];
      const types: EventType[] = [
        "invoice.paid",
        "payment.canceled",
        "invoice.paid",
        "subscription.created",
        "invoice.paid",
      ];
      const events = types.map((type, i) => eventOf(project.id, type, AT + i * 1000));
      await writeEvents(storage, project.id, events.slice(0, 2));
      await writeEvents(storage, project.id, events.slice(2));
      const theirs = eventOf(other.id, "invoice.paid", AT + 10_000);
      await writeEvents(storage, other.id, [theirs]);
      const newest = [...events].reverse();
      const list = async (page: Partial<EventPage>) =>
        unwrap(storage.listEvents(project.id, { ...ALL_EVENTS, ...page }));
      expect(await list({})).toEqual(newest);
      expect(await list({ limit: 2 })).toEqual(newest.slice(0, 2));
      expect(await list({ limit: 2, before: newest[1]?.id ?? null })).toEqual(newest.slice(2, 4));
      expect(await list({ before: events[0]?.id ?? null })).toEqual([]);
      expect(await list({ type: "invoice.paid" })).toEqual(newest.filter((e) => e.type === "invoice.paid"));
      expect(await list({ since: new Date(AT + 3000) })).toEqual(newest.slice(0, 2));
      expect(await list({ type: "invoice.paid", since: new Date(AT + 1000), limit: 1 })).toEqual([events[4]]);
      expect(await list({ type: "refund.succeeded" })).toEqual([]);
      expect(await unwrap(storage.findEvent(project.id, events[1]?.id ?? ""))).toEqual(events[1]);
      // Another project's events are never seen, found or listed.
      expect(await unwrap(storage.findEvent(project.id, theirs.id))).toBeNull();
      expect(await unwrap(storage.findEvent(other.id, events[1]?.id ?? ""))).toBeNull();
      expect(await unwrap(storage.listEvents(other.id, ALL_EVENTS))).toEqual([theirs]);
      // Odd inputs find nothing.
      expect(await unwrap(storage.findEvent(project.id, "not-a-uuid"))).toBeNull();
      expect(await unwrap(storage.findEvent("not-a-uuid", theirs.id))).toBeNull();
      expect(await list({ before: "not-a-uuid" })).toEqual([]);
      expect(await list({ limit: 0 })).toEqual([]);
      expect(await unwrap(storage.listEvents("not-a-uuid", ALL_EVENTS))).toEqual([]);
    });

    it("logs each attempt that records, newest first per endpoint, and drops the log with its endpoint", async () => {
      const storage = await factory();
      const [project, other] = [await savedProject(storage), await savedProject(storage)];
      const endpoint = sampleWebhookEndpoint(project.id);
      const bystander = sampleWebhookEndpoint(project.id);
      for (const e of [endpoint, bystander]) await unwrap(storage.saveWebhookEndpoint(e));
      const events = (["invoice.paid", "payment.canceled", "subscription.created"] as const).map((type) =>
        eventOf(project.id, type, AT),
      );
      await writeEvents(storage, project.id, events);
      const claimed = await claimOf(storage, events, AT);
      const toEndpoint = (event: DomainEvent | undefined) =>
        claimed.find((d) => d.event.id === event?.id && d.endpoint.id === endpoint.id);
      const [paid, succeeded, created] = events.map(toEndpoint);
      const retry = attemptOf(paid, "retry", AT + 1, {
        status: null,
        error: "connect ECONNREFUSED",
        durationMs: 3,
      });
      const delivered = attemptOf(succeeded, "delivered", AT + 2, { durationMs: 1200 });
      const failed = attemptOf(created, "failed", AT + 3, { status: 410, error: "HTTP 410 Gone" });
      for (const attempt of [retry, delivered, failed]) await unwrap(storage.recordDeliveryAttempt(attempt));
      // A lease lost: nothing recorded, nothing logged.
      const stale = attemptOf(succeeded, "delivered", AT + 4);
      expect((await unwrapErr(storage.recordDeliveryAttempt(stale))).code).toBe("lease_lost");
      const [again] = (await claimOf(storage, [events[0] as DomainEvent], AT + 2000)).filter(
        (d) => d.endpoint.id === endpoint.id,
      );
      const redone = attemptOf(again, "delivered", AT + 2001);
      await unwrap(storage.recordDeliveryAttempt(redone));

      const log = [
        logged(redone, "invoice.paid"),
        logged(failed, "subscription.created"),
        logged(delivered, "payment.canceled"),
        logged(retry, "invoice.paid"),
      ];
      const page = async (p: Partial<AttemptPage>) =>
        unwrap(storage.listDeliveryAttempts(project.id, endpoint.id, { ...ALL_ATTEMPTS, ...p }));
      expect(await page({})).toEqual(log);
      expect(await page({ limit: 2 })).toEqual(log.slice(0, 2));
      expect(await page({ limit: 2, before: log[1]?.id ?? null })).toEqual(log.slice(2));
      expect(await page({ outcome: "delivered" })).toEqual([log[0], log[2]]);
      expect(await page({ outcome: "retry" })).toEqual([log[3]]);
      expect(await page({ outcome: "failed", before: log[1]?.id ?? null })).toEqual([]);
      expect(await rowsContaining(storage, "webhook_delivery_attempts", retry.id)).toHaveLength(1);
      expect(await rowsContaining(storage, "webhook_delivery_attempts", stale.id)).toEqual([]);
      // Each endpoint's log is its own, and its project's.
      expect(await unwrap(storage.listDeliveryAttempts(project.id, bystander.id, ALL_ATTEMPTS))).toEqual([]);
      expect(await unwrap(storage.listDeliveryAttempts(other.id, endpoint.id, ALL_ATTEMPTS))).toEqual([]);
      expect(await unwrap(storage.listDeliveryAttempts(project.id, "not-a-uuid", ALL_ATTEMPTS))).toEqual([]);
      expect(await unwrap(storage.listDeliveryAttempts("not-a-uuid", endpoint.id, ALL_ATTEMPTS))).toEqual([]);
      expect(await page({ before: "not-a-uuid" })).toEqual([]);
      expect(await page({ limit: 0 })).toEqual([]);

      expect(await unwrap(storage.removeWebhookEndpoint(project.id, endpoint.id))).toBe(true);
      expect(await page({})).toEqual([]);
      expect(await rowsContaining(storage, "webhook_delivery_attempts", retry.id)).toEqual([]);
    });

    it("queues an event again: due now with attempts started afresh, new where there was none, a lease kept", async () => {
      const storage = await factory();
      const [project, other] = [await savedProject(storage), await savedProject(storage)];
      const endpoint = sampleWebhookEndpoint(project.id);
      // Takes no invoice.paid: the event never fanned out to it.
      const later = sampleWebhookEndpoint(project.id, { eventTypes: ["subscription.created"] });
      const foreign = sampleWebhookEndpoint(other.id);
      for (const e of [endpoint, later, foreign]) await unwrap(storage.saveWebhookEndpoint(e));
      const event = eventOf(project.id, "invoice.paid", AT);
      const theirs = eventOf(other.id, "invoice.paid", AT);
      await writeEvents(storage, project.id, [event]);
      await writeEvents(storage, other.id, [theirs]);
      const [first] = await claimOf(storage, [event], AT);
      await unwrap(storage.recordDeliveryAttempt(attemptOf(first, "delivered", AT + 1)));

      const now = AT + HOUR_MS;
      const redeliver = (projectId: string, eventId: string, endpointIds: string[], at = now) =>
        unwrap(storage.redeliverEvent(projectId, eventId, endpointIds, new Date(at)));
      expect(
        await redeliver(project.id, event.id, [endpoint.id, later.id, foreign.id, "not-a-uuid"]),
      ).toEqual([endpoint.id, later.id]);
      const deliveries = async (projectId: string) =>
        (await unwrap(storage.listEventDeliveries(projectId))).flatMap((e) =>
          e.deliveries.map((d) => ({
            eventId: e.event.id,
            endpointId: d.endpointId,
            state: d.state,
            attempts: d.attempts,
          })),
        );
      const pending = (endpointId: string) => ({
        eventId: event.id,
        endpointId,
        state: "pending",
        attempts: 0,
      });
      const byEndpoint = (a: { endpointId: string }, b: { endpointId: string }) =>
        a.endpointId.localeCompare(b.endpointId);
      expect((await deliveries(project.id)).sort(byEndpoint)).toEqual(
        [pending(endpoint.id), pending(later.id)].sort(byEndpoint),
      );
      // Due at `now`, not at the event's time.
      expect(await claimOf(storage, [event], now - 1)).toEqual([]);
      const reclaimed = await claimOf(storage, [event], now);
      expect(reclaimed.map((d) => [d.endpoint.id, d.attempts]).sort()).toEqual(
        [
          [endpoint.id, 0],
          [later.id, 0],
        ].sort(),
      );

      // In flight: queued again, its lease holds (no second claim) and its attempt still records.
      expect(await redeliver(project.id, event.id, [endpoint.id], now + 1)).toEqual([endpoint.id]);
      expect(await claimOf(storage, [event], now + 2)).toEqual([]);
      const held = reclaimed.find((d) => d.endpoint.id === endpoint.id);
      await unwrap(storage.recordDeliveryAttempt(attemptOf(held, "delivered", now + 3)));

      // Another project's event or endpoint: nothing queued, nothing made.
      expect(await redeliver(other.id, event.id, [foreign.id])).toEqual([]);
      expect(await redeliver(project.id, theirs.id, [endpoint.id])).toEqual([]);
      expect(await redeliver(project.id, randomUUID(), [endpoint.id])).toEqual([]);
      expect(await redeliver(project.id, "not-a-uuid", [endpoint.id])).toEqual([]);
      expect(await redeliver("not-a-uuid", event.id, [endpoint.id])).toEqual([]);
      expect(await redeliver(project.id, event.id, [])).toEqual([]);
      expect((await deliveries(project.id)).map((d) => d.endpointId).sort()).toEqual(
        [endpoint.id, later.id].sort(),
      );
      expect((await deliveries(other.id)).map((d) => d.endpointId)).toEqual([foreign.id]);
    });

    it("purges events older than a time, at most a limit, with their deliveries and attempts", async () => {
      const storage = await factory();
      const project = await savedProject(storage);
      const endpoint = sampleWebhookEndpoint(project.id);
      await unwrap(storage.saveWebhookEndpoint(endpoint));
      // Before any other test's event (the counts' are from 2000 on): on a shared database, only this
      // test's events are that old.
      const base = Date.UTC(1970 + Math.floor(Math.random() * 29), 0, 1) + Math.floor(Math.random() * 1e9);
      const old = [1, 2, 3].map((ms) => eventOf(project.id, "invoice.paid", base + ms));
      const recent = eventOf(project.id, "invoice.paid", base + 10);
      await writeEvents(storage, project.id, [...old, recent]);
      const [claimed] = await claimOf(storage, old.slice(0, 1), base + 5);
      const attempt = attemptOf(claimed, "retry", base + 6);
      await unwrap(storage.recordDeliveryAttempt(attempt));
      const found = async (events: DomainEvent[]) =>
        (await Promise.all(events.map((e) => unwrap(storage.findEvent(project.id, e.id))))).filter(
          (e) => e !== null,
        );

      expect(await unwrap(storage.purgeEventsBefore(new Date(base + 5), 0))).toBe(0);
      expect(await unwrap(storage.purgeEventsBefore(new Date(base + 5), 2))).toBe(2);
      expect(await found(old)).toHaveLength(1);
      expect(await unwrap(storage.purgeEventsBefore(new Date(base + 5), 100))).toBe(1);
      expect(await found(old)).toEqual([]);
      expect(await found([recent])).toEqual([recent]);
      const left = await unwrap(storage.listEventDeliveries(project.id));
      expect(left.map((e) => [e.event.id, e.deliveries.map((d) => d.endpointId)])).toEqual([
        [recent.id, [endpoint.id]],
      ]);
      expect(await unwrap(storage.listDeliveryAttempts(project.id, endpoint.id, ALL_ATTEMPTS))).toEqual([]);
      expect(await rowsContaining(storage, "webhook_delivery_attempts", attempt.id)).toEqual([]);
      // The purged events' pending deliveries are claimed no more; the recent one's still is.
      const due = await claimOf(storage, [...old, recent], base + HOUR_MS);
      expect(due.map((d) => d.event.id)).toEqual([recent.id]);
      // Delivered: the counts' test after this one finds no older pending event than its own.
      await unwrap(storage.recordDeliveryAttempt(attemptOf(due[0], "delivered", base + HOUR_MS)));
    });
  });
}
