-- Issue 41 part 5 (API.md 11.5): a payer's link to put a new payment method on a subscription. The
-- newest link asked is kept with the subscription, as JSON (`id`, `createdAt`, `expiresAt`, `attempts`,
-- `completedBy`, `completedAt`; timestamps as ISO 8601 text), so that every write to it is the
-- subscription's own version-checked write: a method put on never races a renewal unseen.
--
-- Additive: an older process reads and writes rows as before and leaves the column as it is (its writes
-- name only the columns it knows), but it serves neither the endpoint nor the page: upgrade every process
-- before handing out method-update links.
ALTER TABLE subscriptions ADD COLUMN method_update jsonb;
