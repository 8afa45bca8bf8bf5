/** What an embedding gives `createKopek` and gets back: its options, requests, responses and the instance. */
import type { Result } from "neverthrow";
import type { KopekError } from "./domain/errors.js";
import type { Invoice, Payment } from "./domain/model.js";
import type { Project } from "./domain/project.js";
import type { OnAmountMismatch } from "./payments/amount-rule.js";
import type {
  CheckPaymentRequest,
  StartedPayment,
  StartPaymentRequest,
} from "./payments/invoice-payments.js";
import type { MethodUpdatePages } from "./payments/method-update-page.js";
import type { PaymentPage } from "./payments/payment-page.js";
import type { ProviderNotificationRequest } from "./payments/provider-notifications.js";
import type { Clock } from "./ports/clock.js";
import type { IdGenerator } from "./ports/id-generator.js";
import type { NotificationAnswer, PaymentProvider } from "./ports/payment-provider.js";
import type { Storage } from "./ports/storage.js";
import type { WebhookUrlProblem } from "./ports/webhook-transport.js";

export interface KopekOptions {
  readonly storage: Storage;
  /** The payment provider that serves a project (by its provider settings). */
  readonly providerFor: (project: Project) => PaymentProvider;
  /**
   * Base URL of the hosted payment pages (`paymentUrl` = publicUrl + /pay/{projectId}/{invoiceId}). A
   * function when it is known only later (a server listening on a port the system picks); it is read
   * per request.
   */
  readonly publicUrl: string | (() => string);
  readonly clock?: Clock;
  readonly ids?: IdGenerator;
  /** How long idempotency keys are remembered; default 24 h (API.md 3). */
  readonly idempotencyTtlMs?: number;
  /** How long an executing request holds its key; default 30 s, at most 60 s. */
  readonly leaseMs?: number;
  /**
   * How long creating a subscription waits for a first charge the provider answered `pending`,
   * asking it again meanwhile; still pending then, the subscription is `incomplete` (API.md 10.5).
   * Default 10 s.
   */
  readonly pendingChargeWaitMs?: number;
  /** Largest accepted request body in bytes; default 64 KiB (API.md 4). */
  readonly bodyLimitBytes?: number;
  /**
   * Told about every provider word refused because its amount or currency is not what Kopek asked for
   * (API.md 10.1): it settled nothing and the payment or refund stays pending. For the embedding's
   * error log and metrics; called synchronously, it must not throw.
   */
  readonly onAmountMismatch?: OnAmountMismatch | undefined;
  /**
   * Why a webhook endpoint's URL may not be used (API.md 12: `url_not_allowed`), or null when it may.
   * Default: any absolute https:// URL. The server gives the outbound guard's rule (no private,
   * loopback or link-local addresses), which its transport checks again on every delivery.
   */
  readonly webhookUrlProblem?: WebhookUrlProblem;
  /** Called with the cause of every 5xx answer, for the embedding's log. */
  readonly onError?: (cause: unknown, context: { readonly requestId: string; readonly code: string }) => void;
}

/** One API request, as any HTTP framework has it at hand. */
export interface KopekRequest {
  readonly method: string;
  /** The request target: the path and its query string, e.g. `/v1/invoices?limit=10`. */
  readonly url: string;
  /** The request's headers, names in lower case (Node's `request.headers` as it is). */
  readonly headers: Readonly<Record<string, string | readonly string[] | undefined>>;
  /** The body exactly as received (Kopek parses it); undefined or empty when there is none. */
  readonly body?: string | Uint8Array | undefined;
  /**
   * Set when the embedding refused the request itself before handing Kopek its body (larger than it
   * reads, rate limited, cut short): Kopek still authenticates it first, so a bad key gets 401, and
   * answers with this refusal otherwise.
   */
  readonly refusal?: KopekError | undefined;
  /**
   * The id to answer and log the request under, sent as `x-request-id` by the embedding. When omitted,
   * Kopek takes the caller's sane `X-Request-Id`, else makes one, and adds the `x-request-id` header.
   */
  readonly requestId?: string | undefined;
}

/** The answer to send: status, headers (lower-case names) and the exact body bytes. */
export interface KopekResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  /** The project the request authenticated as, for the embedding's log; absent when it did not. */
  readonly projectId?: string | undefined;
  /** The problem's `code` when Kopek refused the request just now (not on a replay), for metrics and logs. */
  readonly code?: string | undefined;
}

export interface Kopek {
  /**
   * Answers one API request, in the order of API.md 9: authentication, the embedding's own refusal,
   * route, body, Idempotency-Key, validation, execution, storage. Never throws.
   */
  handle(request: KopekRequest): Promise<KopekResponse>;
  /** Renders an error exactly as Kopek would, for an answer that is not an API request (a 404 outside /v1). */
  errorResponse(error: KopekError, requestId: string): KopekResponse;
  /** Deletes expired idempotency records, at most `limit`. */
  purgeExpiredIdempotencyKeys(limit?: number): Promise<Result<number, KopekError>>;
  /**
   * What the hosted payment page shows for an invoice of a project (no API key: the id is the
   * capability); `not_found` for an invoice of another project. `projectId` absent or null only for a
   * legacy link, `/pay/{invoiceId}`: the invoice is then looked up by its id alone.
   */
  paymentPage(invoiceId: string, projectId?: string | null): Promise<Result<PaymentPage, KopekError>>;
  /**
   * The payer chose a method on the hosted page: a pending Payment and a provider payment, and where
   * the payer confirms it (API.md 10.3.2). Settles nothing.
   */
  startPayment(request: StartPaymentRequest): Promise<Result<StartedPayment, KopekError>>;
  /**
   * A provider's notification (API.md 10.4): checked with the provider, settled on its answer; what
   * to answer the provider, or why it was refused (nothing changed).
   */
  providerNotification(request: ProviderNotificationRequest): Promise<Result<NotificationAnswer, KopekError>>;
  /** The payer came back from the provider: Kopek asks the provider and settles on its answer (10.3.3). */
  checkPayment(
    request: CheckPaymentRequest,
  ): Promise<Result<{ readonly payment: Payment; readonly invoice: Invoice }, KopekError>>;
  /** The page where a payer saves a new method for a subscription (API.md 11.5). */
  readonly methodUpdates: MethodUpdatePages;
}
