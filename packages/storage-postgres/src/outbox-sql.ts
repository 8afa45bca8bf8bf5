/**
 * The outbox's SQL. Events travel as one JSON array parameter and are written by CTEs appended to a
 * resource write's statement, so the event rows, their deliveries and the resource change commit in
 * one statement or not at all.
 */

/**
 * CTEs that insert the events `source` selects (rows of `id, project_id, type, created_at, data`) and
 * fan each one out to the enabled endpoints of its project that take its type (`event_types`, null:
 * every type). `project`, when every event is of one
 * project, is that project as an SQL expression (a parameter): naming it where the endpoints are read
 * keeps the statement within one project (one shard on Citus). Starts with a comma: it follows the
 * statement's other CTEs.
 */
export function outboxCtesFrom(source: string, project: string | null): string {
  const sameProject = project === null ? "" : ` AND w.project_id = ${project}`;
  return `,
outbox_events AS (
  INSERT INTO events (id, project_id, type, created_at, data)
  ${source}
  RETURNING id, project_id, type, created_at
),
outbox_deliveries AS (
  INSERT INTO webhook_deliveries (project_id, event_id, endpoint_id, state, next_attempt_at)
  SELECT e.project_id, e.id, w.id, 'pending', e.created_at
    FROM outbox_events e JOIN webhook_endpoints w ON w.project_id = e.project_id AND w.enabled${sameProject}
     AND (w.event_types IS NULL OR e.type = ANY (w.event_types))
  RETURNING 1
)`;
}

/** The record type of an events array as `eventsParameter` writes it. */
export const EVENT_RECORD = "e(id uuid, project_id uuid, type text, created_at timestamptz, data json)";

/**
 * The outbox CTEs for the events of `$<param>` (a JSON array), all of the project `$<project>`, written
 * when `guard` (a CTE) returned a row. The events are stored under that project, whatever the array says.
 */
export function outboxCtes(param: number, project: number, guard: string): string {
  return outboxCtesFrom(
    `SELECT e.id, $${project}::uuid, e.type, e.created_at, e.data
    FROM json_to_recordset($${param}::json) AS ${EVENT_RECORD}
   WHERE EXISTS (SELECT 1 FROM ${guard})`,
    `$${project}::uuid`,
  );
}

/** Turns a `WITH a AS (…), … SELECT …` statement into one that also writes the outbox after `guard`. */
export function withOutbox(statement: string, param: number, project: number, guard: string): string {
  const select = statement.lastIndexOf("\nSELECT ");
  if (select < 0) throw new Error("withOutbox: the statement has no final SELECT");
  return `${statement.slice(0, select)}${outboxCtes(param, project, guard)}${statement.slice(select)}`;
}

/** An UPDATE … RETURNING 1 as a statement that writes the outbox too; returns `written` (0 or 1). */
export function updateWithOutbox(update: string, param: number, project: number): string {
  return `WITH written AS (
${update}
)${outboxCtes(param, project, "written")}
SELECT (SELECT count(*) FROM written)::integer AS written`;
}

/** Events on their own, in the caller's transaction: $1 the events, $2 their project. */
export const INSERT_EVENTS = updateWithOutbox("SELECT 1", 1, 2);

/** A pending delivery due at $1, its lease free or over, to an enabled endpoint (`d` and `w`). */
const DELIVERY_DUE = `d.state = 'pending' AND d.next_attempt_at <= $1
     AND (d.lease_expires_at IS NULL OR d.lease_expires_at <= $1)`;

/** The projects of the earliest due deliveries: $1 now, $2 limit (`webhook_deliveries_due_idx`). */
export const DISCOVER_DUE_DELIVERIES = `
SELECT d.project_id FROM webhook_deliveries d
  JOIN webhook_endpoints w ON w.project_id = d.project_id AND w.id = d.endpoint_id AND w.enabled
 WHERE ${DELIVERY_DUE}
 ORDER BY d.next_attempt_at LIMIT $2`;

/**
 * `claimDueDeliveries` in one project: $1 now, $2 limit, $3 lease token, $4 lease expiry, $5 the
 * project (SKIP LOCKED as renewals).
 */
export const CLAIM_DUE_DELIVERIES = `
WITH due AS (
  SELECT d.event_id, d.endpoint_id FROM webhook_deliveries d
    JOIN webhook_endpoints w ON w.project_id = $5 AND w.id = d.endpoint_id AND w.enabled
   WHERE d.project_id = $5 AND ${DELIVERY_DUE}
   ORDER BY d.next_attempt_at
   LIMIT $2
   FOR NO KEY UPDATE OF d SKIP LOCKED
),
leased AS (
  UPDATE webhook_deliveries d SET lease_token = $3, lease_expires_at = $4
    FROM due
   WHERE d.project_id = $5 AND d.event_id = due.event_id AND d.endpoint_id = due.endpoint_id
  RETURNING d.event_id, d.endpoint_id, d.attempts, d.next_attempt_at
)
SELECT l.attempts, e.id AS event_id, e.project_id, e.type, e.created_at, e.data,
       w.id AS endpoint_id, w.url, w.secret_ciphertext, w.previous_secret_ciphertext,
       w.previous_secret_expires_at, w.event_types, w.description, w.enabled,
       w.created_at AS endpoint_created_at, w.disabled_at, w.disabled_reason, w.last_success_at
  FROM leased l
  JOIN events e ON e.project_id = $5 AND e.id = l.event_id
  JOIN webhook_endpoints w ON w.project_id = $5 AND w.id = l.endpoint_id
 ORDER BY l.next_attempt_at`;

/**
 * `recordDeliveryAttempt`: $1 event, $2 endpoint, $3 lease, $4 state, $5 next attempt, $6 status, $7
 * error, $8 at, $9 the project, $10 the attempt's id, $11 its outcome, $12 its duration (ms). The
 * attempt joins the endpoint's log only when the lease held (`recorded`).
 */
export const RECORD_DELIVERY_ATTEMPT = `
WITH recorded AS (
  UPDATE webhook_deliveries
     SET state = $4, attempts = attempts + 1, next_attempt_at = COALESCE($5, next_attempt_at),
         lease_token = NULL, lease_expires_at = NULL, last_status = $6, last_error = $7
   WHERE project_id = $9 AND event_id = $1 AND endpoint_id = $2 AND lease_token = $3 AND state = 'pending'
  RETURNING 1
),
success AS (
  UPDATE webhook_endpoints SET last_success_at = $8
   WHERE project_id = $9 AND id = $2 AND $4 = 'delivered' AND EXISTS (SELECT 1 FROM recorded)
  RETURNING 1
),
logged AS (
  INSERT INTO webhook_delivery_attempts
    (project_id, id, event_id, endpoint_id, attempted_at, outcome, http_status, error, duration_ms)
  SELECT $9, $10::uuid, $1, $2, $8, $11::text, $6, $7, $12::integer FROM recorded
  RETURNING 1
)
SELECT (SELECT count(*) FROM recorded)::integer AS recorded`;
