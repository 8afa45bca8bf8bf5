// @kopek/core — the public API. Named exports only; nothing here touches Fastify, pg or process.env.

export { jsonLimitViolation, MAX_JSON_DEPTH, MAX_JSON_MEMBERS } from "./api/json-limits.js";
export { parseQueryString } from "./api/query-string.js";
export { type BodyRule, DEFAULT_BODY_LIMIT_BYTES, readJsonBody } from "./api/request-body.js";
export { acceptedRequestId } from "./api/request-id.js";
export {
  API_KEY_PREFIX,
  type ApiKeyParts,
  apiKeyChecksum,
  BASE62_ALPHABET,
  generateApiKey,
  hashApiKey,
  isWellFormedApiKey,
  parseBearerToken,
} from "./api-key.js";
export { addPeriods, describePeriod, isPeriodWithinOneYear } from "./billing-period.js";
export { canonicalJson } from "./canonical-json.js";
export { containsCardNumber, formatCardMask, luhnValid, redactCardNumbers } from "./card-guard.js";
export * from "./domain.js";
export * from "./errors.js";
export {
  type DomainEvent,
  EVENT_TYPES,
  type EventType,
  invoiceEvent,
  subscriptionEvent,
  webhookPayload,
} from "./events/domain-event.js";
export { renewalEvents } from "./events/renewal-events.js";
export {
  fingerprintRequest,
  STORED_OUTCOME_CODES,
  validateIdempotencyKeyHeader,
} from "./idempotency.js";
export {
  type AuthContext,
  createKopek,
  type Kopek,
  type KopekOptions,
  type KopekRequest,
  type KopekResponse,
} from "./kopek.js";
export {
  CURRENCY_EXPONENTS,
  currencyExponent,
  formatAmount,
  formatMoney,
  isValidAmount,
  parseAmount,
} from "./money.js";
export {
  createInvoiceSweeper,
  type InvoiceSweeper,
  type InvoiceSweeperOptions,
} from "./payments/invoice-expiry.js";
export type { PayInvoiceRequest, PaymentPage, PaymentResult } from "./payments/payment-page.js";
export type { Clock } from "./ports/clock.js";
export { systemClock } from "./ports/clock.js";
export type { IdGenerator } from "./ports/id-generator.js";
export type * from "./ports/idempotency-storage.js";
export type * from "./ports/outbox-storage.js";
export type * from "./ports/payment-provider.js";
export type * from "./ports/project-storage.js";
export type * from "./ports/resource-storage.js";
export type * from "./ports/schedule-storage.js";
export type * from "./ports/storage.js";
export type * from "./ports/storage-error.js";
export type * from "./ports/webhook-transport.js";
export {
  type InvoiceView,
  invoiceStatusAt,
  presentInvoice,
  presentSubscription,
  type SubscriptionView,
} from "./presenters.js";
export { type Problem, toProblem } from "./problem.js";
export {
  DEFAULT_DUNNING_POLICY,
  type DunningPolicy,
  latestDueCycle,
  nextRetryAt,
} from "./renewal-schedule.js";
export {
  applyChargeResult,
  type ChargeResult,
  cycleToCharge,
  renewalChargeKey,
} from "./renewals/renewal-transition.js";
export {
  createRenewalWorker,
  type RenewalEvent,
  type RenewalReport,
  type RenewalWorker,
  type RenewalWorkerOptions,
} from "./renewals/renewal-worker.js";
export { COLLECTIONS, type Collection, ROUTES, type Route } from "./routes.js";
export { sha256Hex } from "./sha256.js";
export { createUuidV7Generator, isUuid } from "./uuid-v7.js";
export * from "./validation/index.js";
export * from "./validation/limits.js";
export * from "./validation/responses.js";
export {
  generateWebhookSecret,
  isWebhookSecret,
  signWebhook,
  type VerifiedWebhook,
  verifyWebhook,
  WEBHOOK_SECRET_PREFIX,
  type WebhookHeaders,
  type WebhookVerificationError,
} from "./webhook-signature.js";
export {
  DEFAULT_WEBHOOK_RETRY_SCHEDULE_MS,
  MAX_RETRY_AFTER_MS,
  nextDelayMs,
} from "./webhooks/retry-schedule.js";
export {
  createWebhookDispatcher,
  type DispatchReport,
  type WebhookDispatcher,
  type WebhookDispatcherOptions,
} from "./webhooks/webhook-dispatcher.js";
