import {
  type AttemptPage,
  type DomainEvent,
  type EventDeliveries,
  type EventPage,
  isUuid,
  type LoggedAttempt,
} from "@kopek/core";
import { deepCopy } from "./deep-copy.js";
import type { StoredEvent } from "./outbox-rows.js";

// The API's reads of the memory outbox (API.md 12). Each scans the stored events, which are bounded
// (`maxOutboxEntries`): memory storage is for development, tests and embedding, not a database.

/** The stored events by id. */
type Events = ReadonlyMap<string, Readonly<StoredEvent>>;

const byIdAscending = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** The page's limit, or 0 when it can hold nothing (a malformed cursor matches no id, as in SQL). */
function limitOf(page: { readonly limit: number; readonly before: string | null }): number {
  const limit = Math.floor(page.limit);
  return limit > 0 && (page.before === null || isUuid(page.before)) ? limit : 0;
}

/** The newest `limit` rows with an id below `before` (all when null). */
function newest<T extends { id: string }>(rows: T[], before: string | null, limit: number): T[] {
  const older = before === null ? rows : rows.filter((row) => row.id < before);
  return older.sort(byIdAscending).reverse().slice(0, limit);
}

export function findEvent(events: Events, projectId: string, eventId: string): DomainEvent | null {
  const event = events.get(eventId)?.event;
  return event?.projectId === projectId ? deepCopy(event) : null;
}

export function listEvents(events: Events, projectId: string, page: EventPage): DomainEvent[] {
  const limit = limitOf(page);
  if (limit === 0) return [];
  const since = page.since?.getTime() ?? Number.NEGATIVE_INFINITY;
  const matching: DomainEvent[] = [];
  for (const { event } of events.values())
    if (
      event.projectId === projectId &&
      (page.type === null || event.type === page.type) &&
      event.createdAt.getTime() >= since
    )
      matching.push(event);
  return newest(matching, page.before, limit).map(deepCopy);
}

export function listDeliveryAttempts(
  events: Events,
  projectId: string,
  endpointId: string,
  page: AttemptPage,
): LoggedAttempt[] {
  const limit = limitOf(page);
  if (limit === 0) return [];
  const matching: LoggedAttempt[] = [];
  for (const { event, deliveries } of events.values()) {
    if (event.projectId !== projectId) continue;
    for (const attempt of deliveries.get(endpointId)?.log ?? [])
      if (page.outcome === null || attempt.outcome === page.outcome) matching.push(attempt);
  }
  return newest(matching, page.before, limit).map(deepCopy);
}

/** `listEventDeliveries`: a project's events, oldest first, each with the state of its deliveries. */
export function eventDeliveries(events: Events, projectId: string): EventDeliveries[] {
  const stored = [...events.values()].filter((s) => s.event.projectId === projectId);
  stored.sort((a, b) => byIdAscending(a.event, b.event));
  return stored.map(({ event, deliveries }) => ({
    event: deepCopy(event),
    deliveries: [...deliveries.values()].map((d) => ({
      endpointId: d.endpointId,
      state: d.state,
      attempts: d.attempts,
      lastStatus: d.lastStatus,
    })),
  }));
}
