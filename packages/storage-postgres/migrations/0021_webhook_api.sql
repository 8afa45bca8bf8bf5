-- Issue 42 part 1 (API.md 12): events and webhook endpoints through the API.
--
-- An endpoint gains the event types it receives (`event_types`; null: every type, those added later
-- too), an operator's `description`, and the secret a rotation replaced, which keeps signing beside
-- the new one until `previous_secret_expires_at` (both signatures for 24 h). That secret is encrypted
-- like `secret_ciphertext`, bound to `<endpoint id>:previous`, so the two columns cannot be swapped.
--
-- Every delivery attempt is logged (the deliveries log of an endpoint): a row per attempt, gone with
-- its delivery, so with its endpoint removed or its event purged (events are kept 30 days; the purge
-- finds the oldest by `events_created_idx`).
--
-- Additive: an older process neither reads nor writes the new columns and table (its saves name only
-- the columns it knows, so an endpoint keeps its types, description and previous secret), but it fans
-- every event out to every enabled endpoint, signs with the new secret only and logs no attempt:
-- upgrade every process before creating endpoints with event types or rotating a secret.
ALTER TABLE webhook_endpoints
  ADD COLUMN description text,
  ADD COLUMN event_types text[],
  ADD COLUMN previous_secret_ciphertext bytea,
  ADD COLUMN previous_secret_expires_at timestamptz;
-- A statement of its own: Citus runs ADD CONSTRAINT on a distributed table only alone.
ALTER TABLE webhook_endpoints ADD CONSTRAINT webhook_endpoints_previous_secret_check
  CHECK ((previous_secret_ciphertext IS NULL) = (previous_secret_expires_at IS NULL));

CREATE TABLE webhook_delivery_attempts (
  project_id uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  -- UUIDv7: the log lists attempts by it, newest first.
  id uuid NOT NULL,
  event_id uuid NOT NULL,
  endpoint_id uuid NOT NULL,
  attempted_at timestamptz NOT NULL,
  outcome text NOT NULL CHECK (outcome IN ('delivered', 'retry', 'failed')),
  http_status integer,
  error text,
  duration_ms integer NOT NULL CHECK (duration_ms >= 0),
  PRIMARY KEY (project_id, id),
  CONSTRAINT webhook_delivery_attempts_delivery_fkey FOREIGN KEY (project_id, event_id, endpoint_id)
    REFERENCES webhook_deliveries (project_id, event_id, endpoint_id) ON DELETE CASCADE
);

-- An endpoint's log, newest first.
CREATE INDEX webhook_delivery_attempts_endpoint_idx ON webhook_delivery_attempts (project_id, endpoint_id, id);
-- A delivery's attempts, for the cascade when it goes (without it, every delivery purged would scan
-- the attempts of its project).
CREATE INDEX webhook_delivery_attempts_delivery_idx ON webhook_delivery_attempts (project_id, event_id, endpoint_id);

CREATE INDEX events_created_idx ON events (created_at);
