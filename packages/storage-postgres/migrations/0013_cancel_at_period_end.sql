-- Issue 41 part 2 (API.md 11.2): a cancel at the end of the paid period. `cancel_at` is the
-- `next_charge_at` it was asked at; when it comes, the renewal worker charges nothing and cancels
-- (`canceled_at` = `cancel_at`, `cancel_reason` requested). Null: none asked, or undone.
--
-- Additive: an older process reads and writes rows as before and leaves the column alone, but its
-- renewal worker does not know it and would charge such a subscription. Stop older workers before
-- anyone schedules a cancel at period end.

ALTER TABLE subscriptions ADD COLUMN cancel_at timestamptz;
