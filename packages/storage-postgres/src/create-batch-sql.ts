/**
 * `createOnce` for several new invoices at once: one statement, one transaction, one round trip for a
 * whole batch (create-batch.ts). Each row behaves exactly as `createOnceStatement` does for one.
 *
 * $1 is a JSON array of items, each with its position `ord`, the record's fields (`r_…`), the project
 * and the invoice's own columns (`INVOICE_FIELDS`, plus its `id`). Keys are distinct within a batch.
 */
import { RECORD_JSON, REPLACE_EXPIRED_RECORD, type RecordJson } from "./create-once-sql.js";
import { INVOICE_FIELDS } from "./resource-sql.js";

const INVOICE_COLUMNS = INVOICE_FIELDS.map(([name]) => name);

const ITEM_TYPE = [
  "ord integer",
  "project_id uuid",
  "r_key text",
  "r_fingerprint text",
  "r_record_id uuid",
  "r_expires_at timestamptz",
  "r_now timestamptz",
  "r_api_key_id uuid",
  "r_status integer",
  "r_headers jsonb",
  "r_body text",
  "id uuid",
  ...INVOICE_FIELDS.map(([name, type]) => `${name} ${type}`),
].join(", ");

/** The row per item: its `ord`, `outcome` (null: decided against a stale snapshot, run it alone) and `record`. */
export interface CreateBatchRow {
  ord: number;
  outcome: "created" | "existing" | "key_revoked" | "id_taken" | null;
  record: RecordJson | null;
}

/**
 * Records are inserted in (project, key) order, so two batches in flight that share keys wait for
 * each other in one order and never deadlock. A key whose live record was committed after this
 * statement's snapshot was taken is neither created nor seen: its outcome is null.
 *
 * Every lookup is a LATERAL subquery fenced with OFFSET 0, so it stays an index probe per item: the
 * generic plan cannot know a batch is small, and turned plain joins into hash joins that read a whole
 * table per statement (throughput fell as the tables grew).
 */
export const CREATE_INVOICE_BATCH = `
WITH input AS (
  SELECT * FROM json_to_recordset($1::json) AS t(${ITEM_TYPE})
), checked AS (
  SELECT i.*, k.holds, v.taken
    FROM input i
    CROSS JOIN LATERAL (
      SELECT i.r_api_key_id IS NULL OR EXISTS (
               SELECT 1 FROM api_keys k
                WHERE k.id = i.r_api_key_id AND k.project_id = i.project_id AND k.revoked_at IS NULL) AS holds
      OFFSET 0) k
    CROSS JOIN LATERAL (SELECT EXISTS (SELECT 1 FROM invoices v WHERE v.id = i.id) AS taken OFFSET 0) v
), created AS (
  INSERT INTO idempotency_records AS r
    (project_id, key, fingerprint, record_id, state, lease_token, lease_expires_at, expires_at, created_at,
     response_status, response_headers, response_body)
  SELECT i.project_id, i.r_key, i.r_fingerprint, i.r_record_id, 'completed', NULL, NULL, i.r_expires_at, i.r_now,
         i.r_status, i.r_headers, i.r_body
    FROM checked i
   WHERE i.holds AND NOT i.taken
   ORDER BY i.project_id, i.r_key
  ${REPLACE_EXPIRED_RECORD}
  RETURNING r.project_id, r.key
), resource AS (
  INSERT INTO invoices (id, project_id, ${INVOICE_COLUMNS.join(", ")})
  SELECT i.id, i.project_id, ${INVOICE_COLUMNS.map((name) => `i.${name}`).join(", ")}
    FROM input i JOIN created c ON c.project_id = i.project_id AND c.key = i.r_key
  RETURNING 1
)
SELECT i.ord,
       CASE WHEN c.key IS NOT NULL THEN 'created'
            WHEN NOT i.holds THEN 'key_revoked'
            WHEN e.record IS NOT NULL THEN 'existing'
            WHEN i.taken THEN 'id_taken'
       END AS outcome,
       e.record
  FROM checked i
  LEFT JOIN created c ON c.project_id = i.project_id AND c.key = i.r_key
  LEFT JOIN LATERAL (
    SELECT ${RECORD_JSON} AS record
      FROM idempotency_records
     WHERE project_id = i.project_id AND key = i.r_key AND expires_at > i.r_now
     OFFSET 0) e ON c.key IS NULL AND i.holds`;
