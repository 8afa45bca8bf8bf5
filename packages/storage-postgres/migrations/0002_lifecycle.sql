-- Issue 6: cancels, renewals and dunning; version-checked writes. Released migrations are never
-- edited: add 0003_….sql instead.
--
-- Safe while 0.1 processes still serve: they only INSERT subscriptions and invoices, naming the old
-- columns, so every new NOT NULL column has a default or is filled in by a trigger.

ALTER TABLE subscriptions
  ADD COLUMN canceled_at timestamptz,
  ADD COLUMN cancel_reason text CHECK (cancel_reason IN ('requested', 'payment_failed')),
  -- The cycle due at next_charge_at (anchor + next_cycle periods).
  ADD COLUMN next_cycle integer NOT NULL DEFAULT 1 CHECK (next_cycle >= 1),
  -- When the renewal worker acts next: next_charge_at, or the next retry while past due.
  ADD COLUMN next_attempt_at timestamptz,
  ADD COLUMN declines integer NOT NULL DEFAULT 0 CHECK (declines >= 0),
  ADD COLUMN first_declined_at timestamptz,
  -- Bumped by every write; a write from a stale read matches no row (storage error `conflict`).
  ADD COLUMN version integer NOT NULL DEFAULT 1 CHECK (version >= 1),
  -- Set by claimDueSubscriptions, cleared by saveSubscription: while it holds, no other worker claims.
  ADD COLUMN renewal_lease_token text,
  ADD COLUMN renewal_lease_expires_at timestamptz,
  ADD CONSTRAINT subscriptions_canceled_check
    CHECK ((status = 'canceled') = (canceled_at IS NOT NULL)
       AND (canceled_at IS NULL) = (cancel_reason IS NULL)),
  ADD CONSTRAINT subscriptions_dunning_check CHECK ((declines = 0) = (first_declined_at IS NULL)),
  ADD CONSTRAINT subscriptions_renewal_lease_check
    CHECK ((renewal_lease_token IS NULL) = (renewal_lease_expires_at IS NULL));

-- Every 0.1 subscription is in its first cycle: cycle 1 is due at next_charge_at, never declined.
UPDATE subscriptions SET next_attempt_at = next_charge_at;
ALTER TABLE subscriptions ALTER COLUMN next_attempt_at SET NOT NULL;

-- A 0.1 process inserting during a rolling upgrade does not know next_attempt_at: it starts at
-- next_charge_at, as the backfill above did. The WHEN clause makes it free for current inserts.
CREATE FUNCTION kopek_subscription_next_attempt() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.next_attempt_at := NEW.next_charge_at;
  RETURN NEW;
END
$$;
CREATE TRIGGER subscriptions_next_attempt_default BEFORE INSERT ON subscriptions
  FOR EACH ROW WHEN (NEW.next_attempt_at IS NULL) EXECUTE FUNCTION kopek_subscription_next_attempt();

-- The renewal claim: due, chargeable subscriptions, earliest first. Replaces 0001's index on
-- next_charge_at, which a past-due retry schedule no longer follows.
DROP INDEX subscriptions_renewal_idx;
CREATE INDEX subscriptions_renewal_idx ON subscriptions (next_attempt_at, id)
  WHERE status IN ('active', 'past_due');

ALTER TABLE invoices
  ADD COLUMN canceled_at timestamptz,
  ADD COLUMN version integer NOT NULL DEFAULT 1 CHECK (version >= 1),
  ADD CONSTRAINT invoices_canceled_check CHECK ((status = 'canceled') = (canceled_at IS NOT NULL)),
  ADD CONSTRAINT invoices_paid_check CHECK (status <> 'paid' OR paid_at IS NOT NULL);

-- Unpaid invoices newest first: `expired` (stored expired, or created and past expires_at) walks it
-- and skips only the invoices still open, of which there are few.
CREATE INDEX invoices_unpaid_idx ON invoices (project_id, id DESC)
  WHERE status IN ('created', 'expired');
-- Invoices still open (`created` at now): found by expires_at > now, then sorted by id, so a project
-- with years of lapsed unpaid invoices does not walk them all to fill a page of open ones.
CREATE INDEX invoices_open_idx ON invoices (project_id, expires_at) WHERE status = 'created';
