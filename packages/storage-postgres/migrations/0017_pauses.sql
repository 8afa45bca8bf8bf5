-- Issue 41 part 4 (API.md 11.4): pause and resume. A pause asked takes effect at the end of the paid
-- period: `pause_at` is the `next_charge_at` it was asked at; the renewal worker charges nothing then and
-- makes the subscription `paused` (`pause_at` kept). The renewal claim takes only trialing, active and
-- past-due subscriptions, so a paused one is never taken up; a resume charges it at once.
--
-- Additive: an older process reads and writes rows as before (it leaves `pause_at` alone), but it cannot
-- show `paused` through its API, and would not pause at `pause_at`: upgrade every process before pausing.
ALTER TABLE subscriptions
  ADD COLUMN pause_at timestamptz,
  DROP CONSTRAINT subscriptions_status_check,
  ADD CONSTRAINT subscriptions_status_check
    CHECK (status IN ('incomplete', 'trialing', 'active', 'past_due', 'paused', 'canceled'));
