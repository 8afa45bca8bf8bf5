/**
 * The idempotency statements. Each is one statement (one round trip, no BEGIN/COMMIT), so no other
 * session ever sees a half-claimed key or a resource without its stored response.
 */

/**
 * The API key check every statement that reads or writes under a key starts with: true when there
 * is no key to check (`apiKey` is null), or when the key belongs to the project and is live (`KEY_LIVE`).
 * Judged in the statement's own snapshot, so a revocation committed before it is honoured by it,
 * whatever any instance had cached.
 */
/** A key is live while not revoked, or revoked only from a moment ahead (a rotation's grace period). */
export const KEY_LIVE = "(revoked_at IS NULL OR revoked_at > now())";

export const keyHolds = (apiKey: string, project: string) => `(${apiKey} IS NULL
      OR EXISTS (SELECT 1 FROM api_keys
                  WHERE id = ${apiKey} AND project_id = ${project} AND ${KEY_LIVE}))`;

/** Columns of the rows `CLAIM` returns; `outcome` says which branch produced the row. */
export interface ClaimRow {
  outcome: "claimed" | "existing" | "key_revoked";
  record_id: string;
  taken_over: boolean;
  state: "in_progress" | "completed";
  fingerprint: string;
  lease_expires_at: Date | null;
  response_status: number | null;
  response_headers: Record<string, string> | null;
  response_body: string | null;
}

/**
 * $1 project, $2 key, $3 fingerprint, $4 record id, $5 lease token, $6 lease expiry, $7 expiry, $8 now,
 * $9 the request's API key id (null: no key to check).
 *
 * `key_holds` checks the API key: a key revoked (or of another project) claims and reads nothing, and
 * the statement answers `key_revoked` instead.
 *
 * The upsert claims when there is no row, when the row expired (replaced: new record id, new expiry),
 * or when it is in progress with an expired lease and the same fingerprint (taken over: the record
 * id and expiry are kept, so derived provider keys stay the same). Otherwise it returns nothing and
 * the second branch reads the row from the statement's snapshot. That snapshot can be older than the
 * row version the upsert judged (a concurrent claim committed in between): a missing row, or one
 * that would have been claimable, is stale and yields no result; the caller then simply re-runs the
 * statement, which takes a fresh snapshot.
 */
export const CLAIM = `
WITH key_holds AS (
  SELECT ${keyHolds("$9::uuid", "$1::uuid")} AS holds
), claimed AS (
  INSERT INTO idempotency_records AS r
    (project_id, key, fingerprint, record_id, state, lease_token, lease_expires_at, expires_at, created_at)
  SELECT $1::uuid, $2::text, $3::text, $4::uuid, 'in_progress', $5::text, $6::timestamptz, $7::timestamptz,
         $8::timestamptz
    FROM key_holds WHERE holds
  ON CONFLICT (project_id, key) DO UPDATE SET
    fingerprint = EXCLUDED.fingerprint,
    record_id = CASE WHEN r.expires_at <= EXCLUDED.created_at THEN EXCLUDED.record_id ELSE r.record_id END,
    expires_at = CASE WHEN r.expires_at <= EXCLUDED.created_at THEN EXCLUDED.expires_at ELSE r.expires_at END,
    created_at = CASE WHEN r.expires_at <= EXCLUDED.created_at THEN EXCLUDED.created_at ELSE r.created_at END,
    state = 'in_progress',
    lease_token = EXCLUDED.lease_token,
    lease_expires_at = EXCLUDED.lease_expires_at,
    response_status = NULL,
    response_headers = NULL,
    response_body = NULL
  WHERE r.expires_at <= EXCLUDED.created_at
     OR (r.state = 'in_progress' AND r.lease_expires_at <= EXCLUDED.created_at
         AND r.fingerprint = EXCLUDED.fingerprint)
  RETURNING r.record_id, r.fingerprint, r.lease_expires_at
)
SELECT 'claimed' AS outcome, record_id, record_id <> $4 AS taken_over, 'in_progress' AS state,
       fingerprint, lease_expires_at, NULL::integer AS response_status, NULL::jsonb AS response_headers,
       NULL::text AS response_body
  FROM claimed
UNION ALL
SELECT 'existing', record_id, false, state, fingerprint, lease_expires_at, response_status,
       response_headers, response_body
  FROM idempotency_records
 WHERE project_id = $1 AND key = $2
   AND (SELECT holds FROM key_holds)
   AND NOT EXISTS (SELECT 1 FROM claimed)
   AND expires_at > $8
   AND NOT (state = 'in_progress' AND lease_expires_at <= $8 AND fingerprint = $3)
UNION ALL
SELECT 'key_revoked', NULL, false, NULL, NULL, NULL, NULL, NULL, NULL
  FROM key_holds WHERE NOT holds`;

/** The UPDATE every completion starts with: $1 project, $2 key, $3 lease token, $4–$6 the response. */
const COMPLETE_RECORD = `
  UPDATE idempotency_records
     SET state = 'completed', lease_token = NULL, lease_expires_at = NULL,
         response_status = $4, response_headers = $5::jsonb, response_body = $6
   WHERE project_id = $1 AND key = $2 AND lease_token = $3 AND state = 'in_progress'
  RETURNING 1`;

/**
 * Completion without a resource (a stored refusal). Returns `completed` = 0 when the lease was lost.
 * Completions with a resource are in `resource-sql.ts`.
 */
export const COMPLETE = `
WITH rec AS (${COMPLETE_RECORD})
SELECT count(*)::integer AS completed FROM rec`;

/** Ends the lease now: $1 project, $2 key, $3 lease token, $4 now. A lease not held is left alone. */
export const RELEASE = `
UPDATE idempotency_records SET lease_expires_at = $4
 WHERE project_id = $1 AND key = $2 AND lease_token = $3 AND state = 'in_progress'
   AND lease_expires_at > $4`;

/** The projects of the earliest expired records: $1 now, $2 limit (`idempotency_records_expires_at_idx`). */
export const DISCOVER_EXPIRED_KEYS = `
SELECT project_id FROM idempotency_records WHERE expires_at <= $1 ORDER BY expires_at LIMIT $2`;

/**
 * Deletes at most $2 records of project $3 with `expires_at <= $1`, oldest first. SKIP LOCKED leaves
 * a record that a claim is replacing right now to that claim, and lets several purgers run side by side.
 */
export const PURGE = `
WITH doomed AS (
  SELECT key FROM idempotency_records
   WHERE project_id = $3 AND expires_at <= $1
   ORDER BY expires_at
   LIMIT $2
   FOR UPDATE SKIP LOCKED
)
DELETE FROM idempotency_records r USING doomed d
 WHERE r.project_id = $3 AND r.key = d.key
RETURNING 1`;
