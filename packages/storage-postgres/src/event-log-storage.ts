import type { EventLogStorage, EventType, LoggedAttempt } from "@kopek/core";
import { toEvent } from "./outbox-rows.js";
import { claimByProject } from "./project-claims.js";
import { NO_CURSOR } from "./resource-sql.js";
import { toDate } from "./rows.js";
import { isUuid, type SqlContext } from "./sql-context.js";

const EVENT_COLUMNS = "id, project_id, type, created_at, data";

const FIND_EVENT = `SELECT ${EVENT_COLUMNS} FROM events WHERE project_id = $1 AND id = $2`;

// $1 project, $2 before, $3 limit, $4 type, $5 since; a null filter matches all. The primary key
// (project_id, id), read backwards.
const LIST_EVENTS = `
SELECT ${EVENT_COLUMNS} FROM events
 WHERE project_id = $1 AND id < $2
   AND ($4::text IS NULL OR type = $4::text)
   AND ($5::timestamptz IS NULL OR created_at >= $5::timestamptz)
 ORDER BY id DESC LIMIT $3`;

// $1 project, $2 endpoint, $3 before, $4 limit, $5 outcome (null: all); `webhook_delivery_attempts_endpoint_idx`.
const LIST_ATTEMPTS = `
SELECT a.id, a.event_id, e.type AS event_type, a.endpoint_id, a.attempted_at, a.outcome, a.http_status,
       a.error, a.duration_ms
  FROM webhook_delivery_attempts a
  JOIN events e ON e.project_id = $1 AND e.id = a.event_id
 WHERE a.project_id = $1 AND a.endpoint_id = $2 AND a.id < $3
   AND ($5::text IS NULL OR a.outcome = $5::text)
 ORDER BY a.id DESC LIMIT $4`;

/**
 * `redeliverEvent`: $1 project, $2 event, $3 endpoints, $4 now. A delivery of the event to each of
 * the project's endpoints among $3, pending and due at $4 with its retry schedule started afresh; its
 * lease columns are left alone, so an attempt in flight still records (and its dispatcher's next
 * claim waits for the lease to end). Nothing when the event is not the project's.
 */
const REDELIVER = `
INSERT INTO webhook_deliveries (project_id, event_id, endpoint_id, state, attempts, next_attempt_at)
SELECT $1, e.id, w.id, 'pending', 0, $4
  FROM events e JOIN webhook_endpoints w ON w.project_id = $1 AND w.id = ANY ($3::uuid[])
 WHERE e.project_id = $1 AND e.id = $2
ON CONFLICT (project_id, event_id, endpoint_id)
  DO UPDATE SET state = 'pending', attempts = 0, next_attempt_at = EXCLUDED.next_attempt_at
RETURNING endpoint_id`;

/** The projects of the oldest events: $1 before, $2 limit (`events_created_idx`). */
const DISCOVER_OLD_EVENTS = `
SELECT project_id FROM events WHERE created_at < $1 ORDER BY created_at LIMIT $2`;

/**
 * Deletes at most $2 events of project $3 created before $1, oldest first; their deliveries and
 * attempts go by the foreign keys' cascade. SKIP LOCKED leaves an event whose delivery is being
 * written right now to the next purge.
 */
const PURGE_EVENTS = `
WITH doomed AS (
  SELECT id FROM events
   WHERE project_id = $3 AND created_at < $1
   ORDER BY created_at
   LIMIT $2
   FOR UPDATE SKIP LOCKED
)
DELETE FROM events e USING doomed d
 WHERE e.project_id = $3 AND e.id = d.id
RETURNING 1`;

/** A page's limit, or 0 when it can hold nothing (a malformed id matches no row). */
function limitOf(ids: readonly (string | null)[], limit: number): number {
  const whole = Math.floor(limit);
  return whole > 0 && ids.every((id) => id === null || isUuid(id)) ? whole : 0;
}

/** The events a project's webhooks carried and each delivery attempt, as the API reads them (API.md 12). */
export function eventLogStorage(sql: SqlContext): EventLogStorage {
  const { query, run } = sql;
  return {
    findEvent: (projectId, eventId) =>
      run("findEvent", async () => {
        if (!isUuid(projectId) || !isUuid(eventId)) return null;
        const { rows } = await query("find_event", FIND_EVENT, [projectId, eventId]);
        return rows[0] === undefined ? null : toEvent(rows[0]);
      }),

    listEvents: (projectId, page) =>
      run("listEvents", async () => {
        const limit = limitOf([projectId, page.before], page.limit);
        if (limit === 0) return [];
        const { rows } = await query("list_events", LIST_EVENTS, [
          projectId,
          page.before ?? NO_CURSOR,
          limit,
          page.type,
          page.since,
        ]);
        return rows.map((row) => toEvent(row));
      }),

    listDeliveryAttempts: (projectId, endpointId, page) =>
      run("listDeliveryAttempts", async () => {
        const limit = limitOf([projectId, endpointId, page.before], page.limit);
        if (limit === 0) return [];
        const { rows } = await query("list_delivery_attempts", LIST_ATTEMPTS, [
          projectId,
          endpointId,
          page.before ?? NO_CURSOR,
          limit,
          page.outcome,
        ]);
        return rows.map(
          (row): LoggedAttempt => ({
            id: String(row.id),
            eventId: String(row.event_id),
            eventType: row.event_type as EventType,
            endpointId: String(row.endpoint_id),
            at: toDate(row.attempted_at),
            outcome: row.outcome as LoggedAttempt["outcome"],
            status: row.http_status === null ? null : Number(row.http_status),
            error: row.error === null ? null : String(row.error),
            durationMs: Number(row.duration_ms),
          }),
        );
      }),

    redeliverEvent: (projectId, eventId, endpointIds, now) =>
      run("redeliverEvent", async () => {
        if (!isUuid(projectId) || !isUuid(eventId)) return [];
        const candidates = [...new Set(endpointIds.filter(isUuid))];
        if (candidates.length === 0) return [];
        const { rows } = await query<{ endpoint_id: string }>("redeliver_event", REDELIVER, [
          projectId,
          eventId,
          candidates,
          now,
        ]);
        // In the order asked; a uuid column answers lower case.
        const queued = new Set(rows.map((row) => row.endpoint_id));
        return candidates.filter((id) => queued.has(id.toLowerCase()));
      }),

    purgeEventsBefore: (before, limit) =>
      run("purgeEventsBefore", async () => {
        const purged = await claimByProject(sql, {
          name: "old_events",
          discover: DISCOVER_OLD_EVENTS,
          claim: PURGE_EVENTS,
          values: [],
          now: before,
          limit,
          toResult: () => 1,
        });
        return purged.length;
      }),
  };
}
