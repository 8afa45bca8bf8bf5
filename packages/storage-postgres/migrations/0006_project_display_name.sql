-- API.md 10.3: the merchant's name as payers see it on the payment page; null shows the project's
-- name. The length rule (1-100 characters) is core's; the check is a second line of defence.
-- Safe while older processes still serve: a nullable column they never read.

ALTER TABLE projects
  ADD COLUMN display_name text,
  ADD CONSTRAINT projects_display_name_length_check
    CHECK (display_name IS NULL OR char_length(display_name) BETWEEN 1 AND 100);
