-- Issue 41 part 1 (API.md 11.1): customers. A customer belongs to one project, keyed (project_id, id)
-- like every tenant table; its `external_id` (the merchant's own id) is unique per project. Erasing
-- one (152-FZ) nulls email, phone and name and sets `erased_at`; the row stays, so the money records
-- that name it keep naming it.
--
-- Subscriptions, invoices and payments name their customer in `customer_id` (null: none), filtered by
-- the lists' `?customerId=`. Additive: older processes never read the new table or columns.
CREATE TABLE customers (
  id uuid NOT NULL,
  project_id uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  email text,
  phone text,
  name text,
  external_id text,
  -- json, not jsonb: a resource read back shows its metadata in the order it was created with.
  metadata json NOT NULL,
  created_at timestamptz NOT NULL,
  erased_at timestamptz,
  version integer NOT NULL CHECK (version >= 1),
  PRIMARY KEY (project_id, id),
  CONSTRAINT customers_external_id_key UNIQUE (project_id, external_id)
);

-- The list's `?email=`.
CREATE INDEX customers_email_idx ON customers (project_id, email) WHERE email IS NOT NULL;

ALTER TABLE subscriptions ADD COLUMN customer_id uuid;
ALTER TABLE invoices ADD COLUMN customer_id uuid;
ALTER TABLE payments ADD COLUMN customer_id uuid;

-- The lists' `?customerId=`, and an erase finding every receipt of a customer.
CREATE INDEX subscriptions_customer_idx ON subscriptions (project_id, customer_id, id DESC)
  WHERE customer_id IS NOT NULL;
CREATE INDEX invoices_customer_idx ON invoices (project_id, customer_id, id DESC)
  WHERE customer_id IS NOT NULL;
CREATE INDEX payments_customer_idx ON payments (project_id, customer_id, id DESC)
  WHERE customer_id IS NOT NULL;
