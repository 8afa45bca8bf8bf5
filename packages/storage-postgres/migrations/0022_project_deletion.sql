-- Issue 42 part 5 (API.md 11.1): `kopek projects delete --force` keeps a project that has money
-- records (its invoices, subscriptions, payments and refunds name it) and marks it deleted here: from
-- then on it takes no new API key, and nothing unmarks it. A project without money records is deleted
-- outright, with its rows, and needs no column.
--
-- Additive: an older process neither reads nor writes the column (its saves name only the columns it
-- knows), but it would add a key to a deleted project: upgrade every process before deleting one.
ALTER TABLE projects ADD COLUMN deleted_at timestamptz;
