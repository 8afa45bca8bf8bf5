-- Issue 42 part 3: the seller's details a payer looks for on the payment page (legal name, ИНН,
-- contacts, the offer and the privacy policy), set in the projects file or with the CLI. JSON with
-- the fields that are set (`legalName`, `inn`, `email`, `phone`, `offerUrl`, `privacyUrl`); null: none.
--
-- Additive: an older process neither reads nor writes the column (its saves name only the columns it
-- knows), so the details stay until a newer process changes them.
ALTER TABLE projects ADD COLUMN seller jsonb;
