-- Issue 16 part 4: the 54-FZ receipt of an invoice or a subscription (API.md 10.7), kept with it and
-- sent with every charge it covers. Plain JSON data (no secret: where the receipt is sent and what
-- was sold); null when none was asked for. Safe while older processes still serve: it only adds
-- nullable columns they never read nor write.

ALTER TABLE invoices ADD COLUMN receipt jsonb;
ALTER TABLE subscriptions ADD COLUMN receipt jsonb;
