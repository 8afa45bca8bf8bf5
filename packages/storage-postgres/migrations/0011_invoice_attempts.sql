-- Issue 38 part 4: a bound on an invoice's payment attempts (MAX_INVOICE_ATTEMPTS in core), and
-- provider keys that never repeat. The invoice counts its attempts, all methods, bumped in the same
-- version-checked write that stores each new attempt, so two tabs cannot both make the last one.
-- Each attempt keeps the number its provider idempotency key carries
-- (`kopek:invoice:{invoice}:{method}:{attempt}`).
--
-- Attempts made before this migration were numbered among the invoice's attempts with the same
-- method, oldest first (ids are UUIDv7): that is what their keys carried, so a pending one asked for
-- again gets the same provider payment. A new attempt is numbered the invoice's count plus one, above
-- every earlier number of any method, so no key is used twice. Both columns are new and nullable or
-- defaulted: rows an older process writes stay valid, but it neither counts nor bounds its attempts,
-- so stop older processes before new ones make attempts.

ALTER TABLE invoices ADD COLUMN attempts integer NOT NULL DEFAULT 0 CHECK (attempts >= 0);
ALTER TABLE payments ADD COLUMN attempt integer CHECK (attempt >= 1);

UPDATE payments p
   SET attempt = n.attempt
  FROM (SELECT project_id, id,
               row_number() OVER (PARTITION BY project_id, invoice_id, method ORDER BY id) AS attempt
          FROM payments
         WHERE invoice_id IS NOT NULL) n
 WHERE p.project_id = n.project_id AND p.id = n.id;

UPDATE invoices i
   SET attempts = c.attempts
  FROM (SELECT project_id, invoice_id, count(*) AS attempts
          FROM payments
         WHERE invoice_id IS NOT NULL
         GROUP BY project_id, invoice_id) c
 WHERE i.project_id = c.project_id AND i.id = c.invoice_id;
