-- Issue 41 part 3 (API.md 11.3): a payment says what it is for. `kind` is `cycle` (a subscription's
-- charge of a cycle), `invoice`, `proration` (the prorated difference of a price raised mid-cycle) or
-- `verification` (a charge proving a new method, refunded at once: 11.5). Only `cycle` payments move a
-- subscription's schedule.
--
-- Additive: a null `kind` is read as what every payment was before: `invoice` when it names an invoice,
-- else `cycle` — so an older process, which inserts without the column, writes rows read rightly, and
-- no row is rewritten (a backfill would lock every payment of a large table).
ALTER TABLE payments
  ADD COLUMN kind text CHECK (kind IN ('cycle', 'invoice', 'proration', 'verification'));
