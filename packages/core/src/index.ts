// @kopek/core — the public API. Named exports only; nothing here touches Fastify, pg or process.env.

export { jsonLimitViolation, MAX_JSON_DEPTH, MAX_JSON_MEMBERS } from "./api/json-limits.js";
export { type Problem, toProblem } from "./api/problem.js";
export { parseQueryString } from "./api/query-string.js";
export { type BodyRule, DEFAULT_BODY_LIMIT_BYTES, readJsonBody } from "./api/request-body.js";
export { acceptedRequestId } from "./api/request-id.js";
export { COLLECTIONS, type Collection, ROUTES, type Route } from "./api/routes.js";
export {
  API_KEY_PREFIX,
  type ApiKeyParts,
  apiKeyChecksum,
  BASE62_ALPHABET,
  generateApiKey,
  hashApiKey,
  isWellFormedApiKey,
  parseBearerToken,
} from "./auth/api-key.js";
export { sha256Hex } from "./crypto/sha256.js";
export { createUuidV7Generator, isUuid } from "./crypto/uuid-v7.js";
export { addPeriods, describePeriod, isPeriodWithinOneYear } from "./domain/billing-period.js";
export {
  FIELD_ISSUE_CODES,
  type FieldIssue,
  type FieldIssueCode,
  type KopekError,
  type KopekErrorCode,
  type KopekErrorOf,
} from "./domain/errors.js";
export {
  MAX_METHOD_UPDATE_ATTEMPTS,
  METHOD_SAVE_UNANSWERED_MS,
  METHOD_UPDATE_TTL_MS,
  type MethodSave,
  type MethodUpdate,
  verificationAmountOf,
} from "./domain/method-update.js";
export {
  CANCEL_REASONS,
  type CancelReason,
  type Customer,
  type CustomerRecord,
  INVOICE_STATUSES,
  type Invoice,
  type InvoiceStatus,
  MAX_INVOICE_ATTEMPTS,
  type Metadata,
  type Money,
  PAYMENT_FAILURE_CODES,
  PAYMENT_KINDS,
  PAYMENT_METHODS,
  PAYMENT_STATUSES,
  type Payment,
  type PaymentFailureCode,
  type PaymentKind,
  type PaymentMethod,
  type PaymentStatus,
  PERIOD_UNITS,
  type Period,
  type PeriodUnit,
  RECEIPT_PAYMENT_MODES,
  RECEIPT_PAYMENT_SUBJECTS,
  REFUND_STATUSES,
  type Receipt,
  type ReceiptItem,
  type ReceiptPaymentMode,
  type ReceiptPaymentSubject,
  type Refund,
  type RefundStatus,
  type SavedMethod,
  SUBSCRIPTION_STATUSES,
  type Subscription,
  type SubscriptionStatus,
} from "./domain/model.js";
export {
  CURRENCY_EXPONENTS,
  currencyExponent,
  formatAmount,
  formatMoney,
  isValidAmount,
  parseAmount,
} from "./domain/money.js";
export { orderNumberOf } from "./domain/order-number.js";
export {
  type CustomerView,
  type InvoiceView,
  invoiceStatusAt,
  type PaymentView,
  presentCustomer,
  presentInvoice,
  presentPayment,
  presentReceipt,
  presentRefund,
  presentSubscription,
  type RefundView,
  type SubscriptionView,
} from "./domain/presenters.js";
export type {
  HttpProviderSettings,
  Project,
  ProviderSettings,
  SandboxProviderSettings,
  SellerDetails,
  TBankProviderSettings,
  YooKassaProviderSettings,
} from "./domain/project.js";
export {
  formatThousandths,
  type ItemTotal,
  itemTotal,
  quantityInThousandths,
  receiptTotal,
} from "./domain/receipt-total.js";
export {
  customerEvent,
  type DomainEvent,
  EVENT_TYPES,
  type EventType,
  invoiceEvent,
  paymentEvent,
  refundEvent,
  subscriptionEvent,
  webhookPayload,
} from "./events/domain-event.js";
export { renewalEvents } from "./events/renewal-events.js";
export { canonicalJson } from "./idempotency/canonical-json.js";
export {
  fingerprintRequest,
  STORED_OUTCOME_CODES,
  validateIdempotencyKeyHeader,
} from "./idempotency/idempotency-rules.js";
export {
  type AuthContext,
  createKopek,
  type Kopek,
  type KopekOptions,
  type KopekRequest,
  type KopekResponse,
} from "./kopek.js";
export {
  type AmountMismatch,
  moneyAgrees,
  type OnAmountMismatch,
  sameMoney,
} from "./payments/amount-rule.js";
export {
  createInvoiceSweeper,
  type InvoiceSweeper,
  type InvoiceSweeperOptions,
} from "./payments/invoice-expiry.js";
export type {
  CheckPaymentRequest,
  StartedPayment,
  StartPaymentRequest,
} from "./payments/invoice-payments.js";
export type {
  MethodUpdateAddress,
  MethodUpdatePage,
  MethodUpdatePages,
  StartedMethodUpdate,
} from "./payments/method-update-page.js";
export { VERIFICATION_DESCRIPTION } from "./payments/method-update-page.js";
export {
  hostedPagePath,
  methodSaveReturnPath,
  methodUpdatePagePath,
  methodUpdateReturnPath,
  pageReturnPath,
} from "./payments/page-paths.js";
export type { PaymentPage } from "./payments/payment-page.js";
export {
  createPaymentReconciler,
  type PaymentReconciler,
  type PaymentReconcilerOptions,
} from "./payments/payment-reconciler.js";
export {
  type ProviderNotificationRequest,
  providerNotificationUrl,
} from "./payments/provider-notifications.js";
export * from "./ports/public.js";
export {
  type OperatorRefundOptions,
  type OperatorRefundRequest,
  refundAsOperator,
} from "./refunds/operator-refund.js";
export { partialRefundReceipt } from "./refunds/refund-receipt.js";
export {
  DEFAULT_DUNNING_POLICY,
  type DunningPolicy,
  latestDueCycle,
  nextRetryAt,
} from "./renewals/renewal-schedule.js";
export {
  applyChargeResult,
  type ChargeResult,
  cycleToCharge,
  renewalChargeKey,
} from "./renewals/renewal-transition.js";
export { createRenewalWorker } from "./renewals/renewal-worker.js";
export type {
  RenewalEvent,
  RenewalOutcome,
  RenewalReport,
  RenewalWorker,
  RenewalWorkerOptions,
} from "./renewals/renewal-worker-types.js";
export { eraseCustomer } from "./use-cases/customers.js";
export { createMethodUpdate } from "./use-cases/method-update.js";
export { type OperatorExecutionOptions, runAsOperator } from "./use-cases/operator-execution.js";
export {
  changeSubscriptionAsOperator,
  type OperatorSubscriptionOptions,
} from "./use-cases/operator-subscription.js";
export {
  deleteProjectAsOperator,
  type ErasedProjectData,
  type ProjectDeletionOutcome,
} from "./use-cases/project-deletion.js";
export { resumeSubscription } from "./use-cases/resume-subscription.js";
export {
  type ChangedSubscription,
  changeSubscription,
  type SubscriptionChange,
} from "./use-cases/subscription-changes.js";
export * from "./validation/public.js";
export {
  EVENT_RETENTION_MS,
  getEvent,
  listEndpointDeliveries,
  listEvents,
  presentAttempt,
  presentEvent,
  redeliverEvent,
} from "./webhooks/event-log.js";
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
export {
  createWebhookEndpoint,
  DISABLED_THROUGH_API,
  deleteWebhookEndpoint,
  type EndpointContext,
  type EndpointWithSecret,
  findEndpoint,
  httpsOnly,
  newWebhookEndpoint,
  presentWebhookEndpoint,
  rotateWebhookSecret,
  SECRET_ROTATION_OVERLAP_MS,
  signingSecrets,
  updateWebhookEndpoint,
  type WebhookEndpointView,
} from "./webhooks/webhook-endpoints.js";
export {
  generateWebhookSecret,
  isWebhookSecret,
  signWebhook,
  type VerifiedWebhook,
  verifyWebhook,
  WEBHOOK_SECRET_PREFIX,
  type WebhookHeaders,
  type WebhookVerificationError,
} from "./webhooks/webhook-signature.js";
