-- Issue 7: the outbox and webhook delivery. Released migrations are never edited: add 0004_….sql.
-- Safe while 0.2 processes still serve: it only adds tables and an invoice index they never touch.

CREATE TABLE webhook_endpoints (
  id uuid PRIMARY KEY,
  project_id uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  url text NOT NULL CHECK (url ~ '^https?://'),
  -- AES-256-GCM like method tokens, bound to the endpoint id; the key id finds rows for rotation.
  secret_ciphertext bytea NOT NULL,
  secret_key_id text NOT NULL,
  enabled boolean NOT NULL,
  created_at timestamptz NOT NULL,
  disabled_at timestamptz,
  disabled_reason text,
  last_success_at timestamptz,
  CHECK (enabled = (disabled_at IS NULL))
);

CREATE INDEX webhook_endpoints_project_idx ON webhook_endpoints (project_id, created_at);

-- The outbox: written by the same statement as the state change that caused the event.
CREATE TABLE events (
  id uuid PRIMARY KEY,
  project_id uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  type text NOT NULL,
  created_at timestamptz NOT NULL,
  -- json, not jsonb: the payload keeps the field order the API presents.
  data json NOT NULL
);

CREATE INDEX events_project_idx ON events (project_id, id);

-- One row per (event, endpoint), fanned out when the event is written.
CREATE TABLE webhook_deliveries (
  event_id uuid NOT NULL REFERENCES events (id) ON DELETE CASCADE,
  endpoint_id uuid NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
  state text NOT NULL CHECK (state IN ('pending', 'delivered', 'failed')),
  attempts integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
  next_attempt_at timestamptz NOT NULL,
  lease_token text,
  lease_expires_at timestamptz,
  last_status integer,
  last_error text,
  PRIMARY KEY (event_id, endpoint_id),
  CHECK ((lease_token IS NULL) = (lease_expires_at IS NULL))
);

-- The dispatcher's claim: pending deliveries, earliest due first.
CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (next_attempt_at) WHERE state = 'pending';
CREATE INDEX webhook_deliveries_endpoint_idx ON webhook_deliveries (endpoint_id);

-- The invoice sweeper: created invoices by expiry.
CREATE INDEX invoices_lapsing_idx ON invoices (expires_at) WHERE status = 'created';
