-- Issue 17 part 4: T-Bank's terminal password is a provider secret like YooKassa's secretKey. The
-- adapter keeps it encrypted apart from the settings (project-rows' SECRET_FIELDS); as in 0005, the
-- database refuses it in clear where settings are kept. Safe while older processes serve: none of them
-- writes a "password" field.

ALTER TABLE projects
  ADD CONSTRAINT projects_provider_no_plain_password_check
    CHECK (NOT (provider ? 'password'));
