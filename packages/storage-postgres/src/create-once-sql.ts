/**
 * `createOnce` and `findIdempotencyRecord` in SQL. A create is one statement, one transaction and one
 * round trip for a whole batch of writes (create-once.ts); a lone create is a batch of one.
 */

import { keyHolds } from "./idempotency-sql.js";
import { INVOICE_FIELDS } from "./invoice-columns.js";
import { EVENT_RECORD, outboxCtesFrom } from "./outbox-sql.js";

/**
 * The row the statements return per write: `outcome` says which branch produced it (null: decided
 * against a stale snapshot, run it again); `record` (json) is the live record of an `existing`
 * answer, null otherwise.
 */
export interface CreateOnceRow {
  ord: number;
  outcome: "created" | "existing" | "key_revoked" | "id_taken" | null;
  record: RecordJson | null;
}

/** A live idempotency record as `RECORD_JSON` writes it. */
export interface RecordJson {
  state: "in_progress" | "completed";
  fingerprint: string;
  lease_expires_at: string | null;
  response_status: number | null;
  response_headers: Record<string, string> | null;
  response_body: string | null;
}

/** The columns of an idempotency_records row a create answers with, as one json value. */
const RECORD_JSON = `json_build_object('state', state, 'fingerprint', fingerprint,
         'lease_expires_at', lease_expires_at, 'response_status', response_status,
         'response_headers', response_headers, 'response_body', response_body)`;

/** One write of a batch: its position, the record's fields (`r_…`), the invoice's columns (all null without one), its events. */
const ITEM_TYPE = [
  "ord integer",
  "r_key text",
  "r_fingerprint text",
  "r_record_id uuid",
  "r_expires_at timestamptz",
  "r_now timestamptz",
  "r_api_key_id uuid",
  "r_status integer",
  "r_headers jsonb",
  "r_body text",
  "events json",
  "id uuid",
  ...INVOICE_FIELDS.map(({ name, cast }) => `${name} ${cast}`),
].join(", ");

const INVOICE_COLUMNS = INVOICE_FIELDS.map(({ name }) => name);

/**
 * $1 is a JSON array of writes with distinct keys, all of project $2 (so the statement stays within
 * one project: one shard on Citus). For each: when the key is free (no record, or an
 * expired one, replaced with the new record id) and its API key holds, the completed record, its
 * invoice (none for a stored refusal) and the invoice's events are written; otherwise nothing, and
 * the row says why: the live record, `key_revoked`, or `id_taken` when the invoice's id exists (checked
 * first, so that is an answer; an id committed concurrently still fails the INSERT with a unique
 * violation, rolling the whole statement back).
 *
 * Records are inserted in key order, so two batches in flight that share keys wait for
 * each other in one order and never deadlock. A key whose live record was committed after this
 * statement's snapshot was taken is neither created nor seen: its outcome is null.
 *
 * Every lookup is a LATERAL subquery fenced with OFFSET 0, so it stays an index probe per item: the
 * generic plan cannot know a batch is small, and turned plain joins into hash joins that read a whole
 * table per statement (throughput fell as the tables grew).
 */
export const CREATE_ONCE = `
WITH input AS (
  SELECT * FROM json_to_recordset($1::json) AS t(${ITEM_TYPE})
), checked AS (
  SELECT i.*, k.holds, v.taken
    FROM input i
    CROSS JOIN LATERAL (SELECT ${keyHolds("i.r_api_key_id", "$2::uuid")} AS holds OFFSET 0) k
    CROSS JOIN LATERAL (
      SELECT i.id IS NOT NULL
             AND EXISTS (SELECT 1 FROM invoices v WHERE v.project_id = $2 AND v.id = i.id) AS taken
      OFFSET 0) v
), created AS (
  INSERT INTO idempotency_records AS r
    (project_id, key, fingerprint, record_id, state, lease_token, lease_expires_at, expires_at, created_at,
     response_status, response_headers, response_body)
  SELECT $2::uuid, i.r_key, i.r_fingerprint, i.r_record_id, 'completed', NULL, NULL, i.r_expires_at, i.r_now,
         i.r_status, i.r_headers, i.r_body
    FROM checked i
   WHERE i.holds AND NOT i.taken
   ORDER BY i.r_key
  ON CONFLICT (project_id, key) DO UPDATE SET
    fingerprint = EXCLUDED.fingerprint,
    record_id = EXCLUDED.record_id,
    state = 'completed',
    lease_token = NULL,
    lease_expires_at = NULL,
    expires_at = EXCLUDED.expires_at,
    created_at = EXCLUDED.created_at,
    response_status = EXCLUDED.response_status,
    response_headers = EXCLUDED.response_headers,
    response_body = EXCLUDED.response_body
  WHERE r.expires_at <= EXCLUDED.created_at
  RETURNING r.key
), written AS (
  SELECT i.* FROM input i JOIN created c ON c.key = i.r_key
), resource AS (
  INSERT INTO invoices (id, project_id, ${INVOICE_COLUMNS.join(", ")})
  SELECT i.id, $2::uuid, ${INVOICE_COLUMNS.map((name) => `i.${name}`).join(", ")}
    FROM written i WHERE i.id IS NOT NULL
  RETURNING 1
)${outboxCtesFrom(
  `SELECT e.id, $2::uuid, e.type, e.created_at, e.data
    FROM written i CROSS JOIN LATERAL json_to_recordset(i.events) AS ${EVENT_RECORD}
   WHERE i.id IS NOT NULL`,
  "$2::uuid",
)}
SELECT i.ord,
       CASE WHEN c.key IS NOT NULL THEN 'created'
            WHEN NOT i.holds THEN 'key_revoked'
            WHEN e.record IS NOT NULL THEN 'existing'
            WHEN i.taken THEN 'id_taken'
       END AS outcome,
       e.record
  FROM checked i
  LEFT JOIN created c ON c.key = i.r_key
  LEFT JOIN LATERAL (
    SELECT ${RECORD_JSON} AS record
      FROM idempotency_records
     WHERE project_id = $2 AND key = i.r_key AND expires_at > i.r_now
     OFFSET 0) e ON c.key IS NULL AND i.holds`;

/** The row `LOOK_UP_KEY` returns: no row means the key is free. */
export interface LookUpRow {
  outcome: "existing" | "key_revoked";
  record: RecordJson | null;
}

/** What a key holds, writing nothing: $1 project, $2 key, $3 now, $4 the API key id. */
export const LOOK_UP_KEY = `
WITH key_holds AS (SELECT ${keyHolds("$4::uuid", "$1::uuid")} AS holds)
SELECT 'existing' AS outcome, ${RECORD_JSON} AS record
  FROM idempotency_records
 WHERE project_id = $1 AND key = $2 AND expires_at > $3 AND (SELECT holds FROM key_holds)
UNION ALL
SELECT 'key_revoked', NULL FROM key_holds WHERE NOT holds`;
