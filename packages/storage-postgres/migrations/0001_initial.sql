-- Kopek's initial schema. Released migrations are never edited: add 0002_….sql instead
-- (migrate() refuses to run when an applied file's checksum changed).

CREATE TABLE projects (
  id uuid PRIMARY KEY,
  name text NOT NULL,
  provider jsonb NOT NULL,
  created_at timestamptz NOT NULL
);

CREATE TABLE api_keys (
  id uuid PRIMARY KEY,
  project_id uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  -- Only the SHA-256 (hex) of the whole key is stored; the key itself never is.
  sha256 text NOT NULL UNIQUE CHECK (sha256 ~ '^[0-9a-f]{64}$'),
  created_at timestamptz NOT NULL,
  revoked_at timestamptz
);

CREATE INDEX api_keys_project_idx ON api_keys (project_id, created_at);

CREATE TABLE idempotency_records (
  project_id uuid NOT NULL,
  key text NOT NULL,
  fingerprint text NOT NULL,
  record_id uuid NOT NULL,
  state text NOT NULL CHECK (state IN ('in_progress', 'completed')),
  -- Set while in progress; cleared on completion, so a completed record has no lease to present.
  lease_token text,
  lease_expires_at timestamptz,
  expires_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL,
  response_status integer,
  response_headers jsonb,
  response_body text,
  PRIMARY KEY (project_id, key),
  CHECK (
    (state = 'in_progress' AND lease_token IS NOT NULL AND lease_expires_at IS NOT NULL
      AND response_status IS NULL)
    OR (state = 'completed' AND lease_token IS NULL AND response_status IS NOT NULL
      AND response_headers IS NOT NULL AND response_body IS NOT NULL)
  )
);

-- The purge walks expired records oldest first.
CREATE INDEX idempotency_records_expires_at_idx ON idempotency_records (expires_at);

CREATE TABLE subscriptions (
  id uuid PRIMARY KEY,
  project_id uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  status text NOT NULL CHECK (status IN ('active', 'past_due', 'canceled')),
  amount bigint NOT NULL CHECK (amount > 0),
  currency text NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
  period_unit text NOT NULL CHECK (period_unit IN ('day', 'week', 'month', 'year')),
  period_count integer NOT NULL CHECK (period_count >= 1),
  method text NOT NULL CHECK (method IN ('card', 'sbp')),
  -- AES-256-GCM, layout in README.md; the key id is repeated here so rotation can find old rows.
  provider_method_ref_ciphertext bytea NOT NULL,
  provider_method_ref_key_id text NOT NULL,
  method_mask text NOT NULL,
  description text NOT NULL,
  -- json, not jsonb: a resource read back shows its metadata in the order it was created with.
  metadata json NOT NULL,
  started_at timestamptz NOT NULL,
  next_charge_at timestamptz NOT NULL,
  last_charged_at timestamptz NOT NULL,
  cycles_started integer NOT NULL CHECK (cycles_started >= 0),
  created_at timestamptz NOT NULL
);

-- Listing newest first (UUIDv7 ids are time-ordered).
CREATE INDEX subscriptions_project_idx ON subscriptions (project_id, id DESC);
-- The renewal worker's scan: only subscriptions that can still be charged.
CREATE INDEX subscriptions_renewal_idx ON subscriptions (next_charge_at)
  WHERE status IN ('active', 'past_due');

CREATE TABLE invoices (
  id uuid PRIMARY KEY,
  project_id uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  status text NOT NULL CHECK (status IN ('created', 'paid', 'expired', 'canceled')),
  amount bigint NOT NULL CHECK (amount > 0),
  currency text NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
  description text NOT NULL,
  comment text,
  customer jsonb,
  -- json, not jsonb: a resource read back shows its metadata in the order it was created with.
  metadata json NOT NULL,
  payment_url text NOT NULL,
  return_url text,
  allowed_methods text[] NOT NULL,
  method text CHECK (method IN ('card', 'sbp')),
  pinned_method text CHECK (pinned_method IN ('card', 'sbp')),
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  paid_at timestamptz
);

CREATE INDEX invoices_project_idx ON invoices (project_id, id DESC);
CREATE INDEX invoices_project_status_idx ON invoices (project_id, status, id DESC);
