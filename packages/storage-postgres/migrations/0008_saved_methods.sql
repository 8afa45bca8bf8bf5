-- Saved methods at checkout, and subscriptions made from a paid invoice (API.md 10.5).

-- An invoice may ask the provider to save the payer's method; once paid it keeps the saved method.
-- The provider's token is encrypted like subscriptions' provider_method_ref (token-cipher.ts), bound
-- to the invoice's id; it is never returned.
ALTER TABLE invoices
  ADD COLUMN save_payment_method boolean NOT NULL DEFAULT false,
  ADD COLUMN saved_method text CHECK (saved_method IN ('card', 'sbp')),
  ADD COLUMN saved_method_mask text,
  ADD COLUMN saved_method_ref_ciphertext bytea,
  ADD COLUMN saved_method_ref_key_id text,
  ADD CONSTRAINT invoices_saved_method_ref_check
    CHECK ((saved_method IS NULL) = (saved_method_ref_ciphertext IS NULL));

-- The paid invoice whose payment was a subscription's first cycle. One invoice backs at most one
-- subscription: the unique index is what keeps two racing creates (any process) to one.
ALTER TABLE subscriptions ADD COLUMN invoice_id uuid;
CREATE UNIQUE INDEX subscriptions_invoice_key ON subscriptions (project_id, invoice_id)
  WHERE invoice_id IS NOT NULL;
