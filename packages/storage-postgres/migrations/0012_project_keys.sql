-- Issue 40 part 2: every key of a tenant row includes its project, so the schema can be sharded by
-- `project_id` (Citus, `kopek migrate --citus`) or HASH-partitioned by it, where every unique key
-- must include the distribution column. Released migrations are never edited: add 0013_….sql.
--
-- A release migration: stop processes of earlier versions first. Their statements name `ON CONFLICT
-- (id)`, which no longer has a unique index to match, and their webhook deliveries name no project.
--
-- What changes:
-- - Primary keys of subscriptions, invoices, payments, refunds, events and webhook endpoints become
--   (project_id, id); deliveries gain project_id and key (project_id, event_id, endpoint_id).
-- - Foreign keys between tenant rows are composite, so they hold within one project (one shard).
-- - `projects` and `api_keys` keep their keys: on Citus they are reference tables (on every node),
--   so the key lookup by hash stays one global unique index.
-- - The per-project indexes (project_id, id DESC) are dropped: the new primary keys serve the same
--   lists (a B-tree is read backwards for newest first).
-- - Invoices keep a plain index on id: a payment link handed out before links named the project is
--   still found by id alone.
-- - 0002's trigger (a default for processes of version 0.1) is dropped: those stopped long ago, and
--   Citus refuses triggers on distributed tables.

DROP TRIGGER subscriptions_next_attempt_default ON subscriptions;
DROP FUNCTION kopek_subscription_next_attempt();

-- Foreign keys that name a single-column key go first: their targets' keys change below.
ALTER TABLE refunds DROP CONSTRAINT refunds_payment_id_fkey;
ALTER TABLE webhook_deliveries
  DROP CONSTRAINT webhook_deliveries_event_id_fkey,
  DROP CONSTRAINT webhook_deliveries_endpoint_id_fkey;

ALTER TABLE subscriptions DROP CONSTRAINT subscriptions_pkey, ADD PRIMARY KEY (project_id, id);
ALTER TABLE invoices DROP CONSTRAINT invoices_pkey, ADD PRIMARY KEY (project_id, id);
ALTER TABLE payments DROP CONSTRAINT payments_pkey, ADD PRIMARY KEY (project_id, id);
ALTER TABLE refunds DROP CONSTRAINT refunds_pkey, ADD PRIMARY KEY (project_id, id);
ALTER TABLE events DROP CONSTRAINT events_pkey, ADD PRIMARY KEY (project_id, id);
ALTER TABLE webhook_endpoints DROP CONSTRAINT webhook_endpoints_pkey, ADD PRIMARY KEY (project_id, id);

DROP INDEX subscriptions_project_idx;
DROP INDEX invoices_project_idx;
DROP INDEX payments_project_idx;
DROP INDEX refunds_project_idx;
DROP INDEX events_project_idx;

CREATE INDEX invoices_id_idx ON invoices (id);

-- A delivery belongs to its event's project (an endpoint only ever receives its own project's events).
ALTER TABLE webhook_deliveries ADD COLUMN project_id uuid;
UPDATE webhook_deliveries d SET project_id = e.project_id FROM events e WHERE e.id = d.event_id;
ALTER TABLE webhook_deliveries
  ALTER COLUMN project_id SET NOT NULL,
  DROP CONSTRAINT webhook_deliveries_pkey,
  ADD PRIMARY KEY (project_id, event_id, endpoint_id);

ALTER TABLE refunds
  ADD CONSTRAINT refunds_payment_fkey FOREIGN KEY (project_id, payment_id)
    REFERENCES payments (project_id, id) ON DELETE CASCADE;
ALTER TABLE webhook_deliveries
  ADD CONSTRAINT webhook_deliveries_project_fkey FOREIGN KEY (project_id)
    REFERENCES projects (id) ON DELETE CASCADE,
  ADD CONSTRAINT webhook_deliveries_event_fkey FOREIGN KEY (project_id, event_id)
    REFERENCES events (project_id, id) ON DELETE CASCADE,
  ADD CONSTRAINT webhook_deliveries_endpoint_fkey FOREIGN KEY (project_id, endpoint_id)
    REFERENCES webhook_endpoints (project_id, id) ON DELETE CASCADE;

DROP INDEX webhook_deliveries_endpoint_idx;
CREATE INDEX webhook_deliveries_endpoint_idx ON webhook_deliveries (project_id, endpoint_id);

-- Background work is claimed project by project: the earliest due rows name the projects (the
-- global indexes), then each project's claim walks its own. Renewals need their own per-project
-- index (every chargeable subscription is in it); pending payments, refunds and deliveries are few,
-- and their global indexes filtered by project serve the claim.
CREATE INDEX subscriptions_project_renewal_idx ON subscriptions (project_id, next_attempt_at, id)
  WHERE status IN ('active', 'past_due');
