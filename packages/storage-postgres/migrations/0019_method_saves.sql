-- Issue 41 part 5 (API.md 11.5): a payer's new method saved with no payment (YooKassa's
-- `POST /v3/payment_methods`, T-Bank's `AddCard`). Each save is kept in the link's JSON
-- (`method_update.saves`: `id`, `method`, `state`, `startedAt`, and while pending `refCiphertext`, the
-- provider's name of the save encrypted like `provider_method_ref`). Reconciliation asks the provider
-- about every pending save; this index keeps that scan to the few subscriptions that hold one.
--
-- Additive: an older process reads the column as before and never starts a save (the project setting
-- `saveWithoutPayment` is new), but it would not reconcile one: upgrade every process before turning it on.
CREATE INDEX subscriptions_method_saves_idx ON subscriptions (id)
  WHERE method_update @> '{"saves": [{"state": "pending"}]}'::jsonb;
