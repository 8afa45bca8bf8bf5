/** The ports of `@kopek/core` as its package exports them: what an adapter implements and calls. */
export type { Clock } from "./clock.js";
export { systemClock } from "./clock.js";
export type { CountStorage, PaymentCount, ResourceCounts, StatusCount } from "./count-storage.js";
export {
  type CustomerListPage,
  type CustomerStorage,
  type CustomerWrite,
  ERASED,
  eraseJsonStrings,
} from "./customer-storage.js";
export type { AttemptPage, EventLogStorage, EventPage, LoggedAttempt } from "./event-log-storage.js";
export type { IdGenerator } from "./id-generator.js";
export type {
  ClaimOutcome,
  CreateOnceOutcome,
  ExistingIdempotencyRecord,
  IdempotencyClaim,
  IdempotencyCompletion,
  IdempotencyLookup,
  IdempotencyRelease,
  IdempotencyStorage,
  IdempotentWrite,
  LookupOutcome,
  NewIdempotencyRecord,
  OneStepWrite,
  StoredResource,
  StoredResponse,
} from "./idempotency-storage.js";
export type { MethodSaveRequest, MethodSaveState, MethodSaves, StartedMethodSave } from "./method-saves.js";
export type {
  ClaimedDelivery,
  DeliveryAttempt,
  DeliveryClaim,
  DeliveryState,
  EventDeliveries,
  OutboxStorage,
  WebhookEndpoint,
} from "./outbox-storage.js";
export type {
  CancelRequest,
  CreatedPayment,
  NotificationAnswer,
  NotificationSubject,
  PaymentLink,
  PaymentLinkRequest,
  PaymentLookup,
  PaymentProvider,
  PaymentRequest,
  ProviderCapabilities,
  ProviderError,
  ProviderNotification,
  ProviderPayment,
  ProviderRefund,
  ProviderSavedMethod,
  RefundRequest,
  StoredMethodCharge,
  StoredMethodDescription,
  StoredMethodLookup,
} from "./payment-provider.js";
export { chargeableLater } from "./payment-provider.js";
export type { PaymentCheckClaim, PaymentListPage, PaymentStorage } from "./payment-storage.js";
export {
  holdsMoney,
  type MoneyRecordCounts,
  type ProjectDeletion,
  type ProjectDeletionStorage,
  type RemovedProjectRows,
} from "./project-deletion-storage.js";
export type {
  ApiKeyMatch,
  ApiKeyRecord,
  KeyOwner,
  ProjectStorage,
} from "./project-storage.js";
export { keyIsLive } from "./project-storage.js";
export type {
  RefundCheckClaim,
  RefundListPage,
  RefundReservation,
  RefundStorage,
} from "./refund-storage.js";
export type {
  InvoicePage,
  ResourcePage,
  ResourceStorage,
  SubscriptionPage,
} from "./resource-storage.js";
export type {
  RenewalClaim,
  ScheduleStorage,
} from "./schedule-storage.js";
export type {
  InspectableStorage,
  Storage,
} from "./storage.js";
export type { StorageError } from "./storage-error.js";
export { refusedResource } from "./stored-rules.js";
export type {
  WebhookRequest,
  WebhookResponse,
  WebhookTransport,
  WebhookUrlProblem,
} from "./webhook-transport.js";
