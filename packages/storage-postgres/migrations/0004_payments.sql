-- Payments (API.md 10.2): every attempt to move money, for an invoice or one cycle of a subscription.
-- No foreign key to invoices or subscriptions: those may be dropped by a project's deletion only,
-- which cascades from projects here too.
CREATE TABLE payments (
  id uuid PRIMARY KEY,
  project_id uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  status text NOT NULL CHECK (status IN ('pending', 'succeeded', 'canceled')),
  amount bigint NOT NULL CHECK (amount > 0),
  currency text NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
  amount_refunded bigint NOT NULL CHECK (amount_refunded >= 0 AND amount_refunded <= amount),
  method text NOT NULL CHECK (method IN ('card', 'sbp')),
  method_mask text,
  invoice_id uuid,
  subscription_id uuid,
  cycle integer CHECK (cycle >= 1),
  provider text NOT NULL,
  provider_payment_id text,
  failure_code text CHECK (
    failure_code IN ('payment_declined', 'expired', 'canceled_by_payer', 'provider_error')
  ),
  created_at timestamptz NOT NULL,
  succeeded_at timestamptz,
  canceled_at timestamptz,
  -- When reconciliation next asks the provider: set while pending, null once final.
  next_check_at timestamptz CHECK ((next_check_at IS NULL) OR status = 'pending'),
  version integer NOT NULL CHECK (version >= 1),
  -- Exactly one of invoice and subscription; a cycle exactly with a subscription.
  CHECK ((invoice_id IS NULL) <> (subscription_id IS NULL)),
  CHECK ((cycle IS NULL) = (subscription_id IS NULL)),
  CHECK ((failure_code IS NULL) = (status <> 'canceled'))
);

CREATE INDEX payments_project_idx ON payments (project_id, id DESC);
CREATE INDEX payments_invoice_idx ON payments (project_id, invoice_id, id DESC) WHERE invoice_id IS NOT NULL;
CREATE INDEX payments_subscription_idx ON payments (project_id, subscription_id, id DESC)
  WHERE subscription_id IS NOT NULL;
-- What reconciliation claims: pending payments by when they are due.
CREATE INDEX payments_check_idx ON payments (next_check_at, id) WHERE status = 'pending';
-- A notification names a payment by the provider's id.
CREATE INDEX payments_provider_idx ON payments (project_id, provider_payment_id)
  WHERE provider_payment_id IS NOT NULL;

-- A subscription whose first charge is pending at the provider is `incomplete` (API.md 10.5): not
-- charged yet, so no last charge; the renewal claim (status active or past_due) never takes it.
ALTER TABLE subscriptions DROP CONSTRAINT subscriptions_status_check;
ALTER TABLE subscriptions
  ADD CONSTRAINT subscriptions_status_check
    CHECK (status IN ('incomplete', 'active', 'past_due', 'canceled')),
  ALTER COLUMN last_charged_at DROP NOT NULL;
