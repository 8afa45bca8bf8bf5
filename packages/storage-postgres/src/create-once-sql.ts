/**
 * `createOnce` in SQL: a create that needs no lease, in one statement (one round trip, one commit).
 * Parameters: $1 project, $2 key, $3 fingerprint, $4 record id, $5 expiry, $6 now, $7 the request's
 * API key id (null: no key to check), $8–$10 the response (status, headers, body); a resource's id
 * and fields follow from $11 (resource-sql.ts).
 */

/** The API key check each statement starts with, as in the claim (idempotency-sql.ts); $1 is the project. */
const keyHolds = (apiKey: string) => `key_holds AS (
  SELECT ${apiKey}::uuid IS NULL
      OR EXISTS (SELECT 1 FROM api_keys WHERE id = ${apiKey}::uuid AND project_id = $1::uuid AND revoked_at IS NULL)
      AS holds
)`;

/**
 * The row the statements return: `outcome` says which branch produced it; `record` (json) is the
 * live record of an `existing` answer, null otherwise. Two columns: a create's answer is read often,
 * and node-postgres sets up a parser per column of every result.
 */
export interface CreateOnceRow {
  outcome: "created" | "existing" | "key_revoked" | "id_taken";
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
export const RECORD_JSON = `json_build_object('state', state, 'fingerprint', fingerprint,
         'lease_expires_at', lease_expires_at, 'response_status', response_status,
         'response_headers', response_headers, 'response_body', response_body)`;

/**
 * How a create's INSERT of a completed record (`AS r`) treats a key that has a record: an expired
 * one is replaced (new record id, lifetime and response); a live one is left as it is (no row).
 */
export const REPLACE_EXPIRED_RECORD = `ON CONFLICT (project_id, key) DO UPDATE SET
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
  WHERE r.expires_at <= EXCLUDED.created_at`;

/**
 * The key's live record, read in the statement's snapshot, when nothing was created and the key holds.
 * A record committed by a concurrent statement after that snapshot is invisible here, and the
 * statement then returns no row: the caller re-runs it (as the claim does).
 */
const existingOrRevoked = (now: string, condition: string) => `SELECT 'existing' AS outcome,
       ${RECORD_JSON} AS record
  FROM idempotency_records
 WHERE project_id = $1 AND key = $2 AND expires_at > ${now} AND (SELECT holds FROM key_holds)${condition}
UNION ALL
SELECT 'key_revoked', NULL FROM key_holds WHERE NOT holds`;

/** What `createOnceStatement` creates with the record: the INSERT (reading `created`) and its table. */
export interface ResourceInsert {
  readonly insert: string;
  readonly table: "invoices" | "subscriptions";
}

/**
 * Creates the completed record when the key is free (no record, or an expired one, replaced with a
 * new record id), and the resource (id $11; none for a stored refusal) with it. Otherwise writes
 * nothing and returns the live record, `key_revoked`, or `id_taken` when the resource's id exists
 * (checked first, so that case is an answer, not an error; a row of that id committed concurrently
 * still fails the INSERT with a unique violation, rolling the whole statement back).
 */
export function createOnceStatement(resource: ResourceInsert | null, extraCtes = ""): string {
  const idFree =
    resource === null ? "" : ` AND NOT EXISTS (SELECT 1 FROM ${resource.table} WHERE id = $11::uuid)`;
  return `
WITH ${keyHolds("$7")}, created AS (
  INSERT INTO idempotency_records AS r
    (project_id, key, fingerprint, record_id, state, lease_token, lease_expires_at, expires_at, created_at,
     response_status, response_headers, response_body)
  SELECT $1::uuid, $2::text, $3::text, $4::uuid, 'completed', NULL, NULL, $5::timestamptz, $6::timestamptz,
         $8::integer, $9::jsonb, $10::text
    FROM key_holds WHERE holds${idFree}
  ${REPLACE_EXPIRED_RECORD}
  RETURNING 1
)${resource === null ? "" : `, resource AS (\n  ${resource.insert}\n)`}${extraCtes}
SELECT 'created' AS outcome, NULL::json AS record FROM created
UNION ALL
${existingOrRevoked("$6", " AND NOT EXISTS (SELECT 1 FROM created)")}${
  resource === null
    ? ""
    : `
UNION ALL
SELECT 'id_taken', NULL
 WHERE NOT EXISTS (SELECT 1 FROM created) AND EXISTS (SELECT 1 FROM ${resource.table} WHERE id = $11::uuid)`
}`;
}

/**
 * When there is nothing to create (the request was refused before any write): what the key holds,
 * without writing. $1 project, $2 key, $3 now, $4 the API key id.
 */
export const LOOK_UP_KEY = `
WITH ${keyHolds("$4")}
${existingOrRevoked("$3", "")}`;
