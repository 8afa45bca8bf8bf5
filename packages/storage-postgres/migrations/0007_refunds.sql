-- Refunds (API.md 10.6): money going back to the payer of a succeeded payment. A pending refund's
-- amount is held against its payment: `reserveRefund` locks the payment row, sums what is refunded
-- and held, and inserts only when the rest covers the new refund, so concurrent refunds (in any
-- number of processes) never together exceed the payment. Safe while older processes serve: a new
-- table they never read.
CREATE TABLE refunds (
  id uuid PRIMARY KEY,
  project_id uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  payment_id uuid NOT NULL REFERENCES payments (id) ON DELETE CASCADE,
  status text NOT NULL CHECK (status IN ('pending', 'succeeded', 'canceled')),
  amount bigint NOT NULL CHECK (amount > 0),
  currency text NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
  reason text,
  provider_refund_id text,
  created_at timestamptz NOT NULL,
  succeeded_at timestamptz,
  canceled_at timestamptz,
  -- When reconciliation next asks the provider: set while pending, null once final.
  next_check_at timestamptz CHECK ((next_check_at IS NULL) OR status = 'pending'),
  version integer NOT NULL CHECK (version >= 1),
  CHECK ((succeeded_at IS NULL) = (status <> 'succeeded')),
  CHECK ((canceled_at IS NULL) = (status <> 'canceled'))
);

CREATE INDEX refunds_project_idx ON refunds (project_id, id DESC);
-- The refunds of one payment: listed by `paymentId`, and summed by every reservation.
CREATE INDEX refunds_payment_idx ON refunds (project_id, payment_id, id DESC);
-- What reconciliation claims: pending refunds by when they are due.
CREATE INDEX refunds_check_idx ON refunds (next_check_at, id) WHERE status = 'pending';
