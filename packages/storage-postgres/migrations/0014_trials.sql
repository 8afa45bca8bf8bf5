-- Issue 41 part 6 (API.md 11.6): trials. A subscription may be `trialing`: not charged yet, its first
-- cycle due at `trial_end`. The schedule gets its own anchor: period p is due at `anchor_at` plus
-- (p − `anchor_period`) periods; until now that was always `started_at` and 0, which a null
-- `anchor_at` still means (rows an older process inserts). The renewal claim now takes trialing
-- subscriptions too, so its partial indexes include them.
--
-- Additive: an older process keeps reading and writing rows as before (it leaves the new columns
-- alone and never claims a trialing subscription), but it cannot show `trialing` through its API.

ALTER TABLE subscriptions
  ADD COLUMN trial_end timestamptz,
  ADD COLUMN anchor_at timestamptz,
  ADD COLUMN anchor_period integer NOT NULL DEFAULT 0 CHECK (anchor_period >= 0),
  DROP CONSTRAINT subscriptions_status_check,
  -- A trial's first cycle is period 0 of its schedule, due at trial_end.
  DROP CONSTRAINT subscriptions_next_cycle_check,
  ADD CONSTRAINT subscriptions_next_cycle_check CHECK (next_cycle >= 0),
  ADD CONSTRAINT subscriptions_status_check
    CHECK (status IN ('incomplete', 'trialing', 'active', 'past_due', 'canceled'));

DROP INDEX subscriptions_renewal_idx;
CREATE INDEX subscriptions_renewal_idx ON subscriptions (next_attempt_at, id)
  WHERE status IN ('trialing', 'active', 'past_due');
DROP INDEX subscriptions_project_renewal_idx;
CREATE INDEX subscriptions_project_renewal_idx ON subscriptions (project_id, next_attempt_at, id)
  WHERE status IN ('trialing', 'active', 'past_due');
