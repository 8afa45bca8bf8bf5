-- Issue 15 part 7: a real provider's credentials belong to its project (API.md 10.8), so a worker on
-- another machine can use them. The secret fields (YooKassa's secretKey) leave the provider column
-- and are kept apart, AES-256-GCM like method tokens, bound to the project id; the key id finds rows
-- for rotation. Safe while 0.4 processes still serve: it only adds nullable columns they never read.

ALTER TABLE projects
  ADD COLUMN provider_secrets_ciphertext bytea,
  ADD COLUMN provider_secrets_key_id text,
  ADD CONSTRAINT projects_provider_secrets_key_check
    CHECK ((provider_secrets_ciphertext IS NULL) = (provider_secrets_key_id IS NULL)),
  -- A second line of defence: the database refuses a secret in clear where settings are kept.
  ADD CONSTRAINT projects_provider_no_plain_secret_check
    CHECK (NOT (provider ? 'secretKey'));
