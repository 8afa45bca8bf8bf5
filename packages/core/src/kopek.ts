import type { Result } from "neverthrow";
import { toProblem } from "./api/problem.js";
import { parseQueryString } from "./api/query-string.js";
import { bodyRefusal, DEFAULT_BODY_LIMIT_BYTES, readJsonBody } from "./api/request-body.js";
import { acceptedRequestId } from "./api/request-id.js";
import { matchRoute } from "./api/routes.js";
import { withHeader } from "./api/with-header.js";
import { KeyCache } from "./auth/key-cache.js";
import type { AuthContext } from "./auth/look-up-key.js";
import { createUuidV7Generator } from "./crypto/uuid-v7.js";
import type { KopekError } from "./domain/errors.js";
import { DEFAULT_PENDING_CHARGE_WAIT_MS } from "./domain/limits.js";
import type { Invoice, Payment } from "./domain/model.js";
import type { Project } from "./domain/project.js";
import { type Executor, executeOnce } from "./idempotency/execute-once.js";
import {
  DEFAULT_LEASE_MS,
  IDEMPOTENCY_TTL_MS,
  MAX_LEASE_MS,
  validateIdempotencyKeyHeader,
} from "./idempotency/idempotency-rules.js";
import { lookUpSentBytes, sentDigest } from "./idempotency/sent-digest.js";
import type { OnAmountMismatch } from "./payments/amount-rule.js";
import {
  type CheckPaymentRequest,
  checkInvoicePayment,
  type StartedPayment,
  type StartPaymentRequest,
  startInvoicePayment,
} from "./payments/invoice-payments.js";
import { type MethodUpdatePages, methodUpdatePages } from "./payments/method-update-page.js";
import { type PaymentPage, paymentPage } from "./payments/payment-page.js";
import {
  handleProviderNotification,
  type ProviderNotificationRequest,
} from "./payments/provider-notifications.js";
import { type Clock, millisecondsOf, systemClock } from "./ports/clock.js";
import type { IdGenerator } from "./ports/id-generator.js";
import type { LookupOutcome } from "./ports/idempotency-storage.js";
import type { NotificationAnswer, PaymentProvider } from "./ports/payment-provider.js";
import type { Storage } from "./ports/storage.js";
import { fromStorageError } from "./use-cases/execution.js";

export type { AuthContext };

export { DEFAULT_PENDING_CHARGE_WAIT_MS };

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

const JSON_CONTENT_TYPE = "application/json; charset=utf-8";

/** Creates a Kopek instance over a storage and the projects' payment providers. */
export function createKopek(options: KopekOptions): Kopek {
  const clock = options.clock ?? systemClock;
  const ids = options.ids ?? createUuidV7Generator({ clock });
  const { storage } = options;
  const keys = new KeyCache(storage, millisecondsOf(clock));
  const bodyLimitBytes = options.bodyLimitBytes ?? DEFAULT_BODY_LIMIT_BYTES;
  const { publicUrl } = options;
  const trimmed = (url: string) => url.replace(/\/+$/, "");
  // A fixed URL is trimmed once; one known only later is read (and trimmed) per write.
  let baseUrl = () => trimmed(typeof publicUrl === "string" ? publicUrl : publicUrl());
  if (typeof publicUrl === "string") {
    const fixed = trimmed(publicUrl);
    baseUrl = () => fixed;
  }

  function errorResponse(error: KopekError, requestId: string): KopekResponse {
    if ("cause" in error && error.cause !== undefined)
      options.onError?.(error.cause, { requestId, code: error.code });
    const problem = toProblem(error, requestId);
    return {
      status: problem.status,
      headers: problem.headers,
      body: JSON.stringify(problem.body),
      code: error.code,
    };
  }

  const executor: Executor = {
    storage,
    clock,
    ids,
    ttlMs: options.idempotencyTtlMs ?? IDEMPOTENCY_TTL_MS,
    leaseMs: Math.min(options.leaseMs ?? DEFAULT_LEASE_MS, MAX_LEASE_MS),
    publicUrl: baseUrl,
    providerFor: (auth) => options.providerFor(auth.project),
    pendingChargeWaitMs: options.pendingChargeWaitMs ?? DEFAULT_PENDING_CHARGE_WAIT_MS,
    onAmountMismatch: options.onAmountMismatch,
    respond: errorResponse,
    keys,
  };

  async function handle(request: KopekRequest): Promise<KopekResponse> {
    const requestId = request.requestId ?? acceptedRequestId(request.headers["x-request-id"]) ?? ids.newId();
    let response: KopekResponse;
    try {
      response = await answer(request, requestId);
    } catch (cause) {
      response = errorResponse({ code: "internal_error", cause }, requestId);
    }
    // An embedding that named the request knows its id and sends the header itself.
    if (request.requestId !== undefined) return response;
    const { status, headers, body, projectId } = response;
    return { status, headers: withHeader(headers, "x-request-id", requestId), body, projectId };
  }

  async function answer(request: KopekRequest, requestId: string): Promise<KopekResponse> {
    const { url, headers } = request;
    const queryAt = url.indexOf("?");
    const path = queryAt < 0 ? url : url.slice(0, queryAt);
    if (path !== "/v1" && !path.startsWith("/v1/")) return errorResponse({ code: "not_found" }, requestId);
    const authenticated = await keys.authenticate(header(headers.authorization));
    if (authenticated.isErr()) return errorResponse(authenticated.error, requestId);
    const auth = authenticated.value;
    const projectId = auth.project.id;
    // One literal of one shape, not a spread: the answer goes to the embedding's hot path.
    const as = ({ status, headers, body, code }: KopekResponse): KopekResponse => ({
      status,
      headers,
      body,
      projectId,
      code,
    });
    // Only a write's own storage step checks a remembered key (atomically); any other answer
    // confirms it first, so a revoked key gets 401 on its very next request, whatever it asks.
    const refuse = async (error: KopekError) => {
      const confirmed = await keys.confirm(auth);
      return confirmed.isErr()
        ? errorResponse(confirmed.error, requestId)
        : as(errorResponse(error, requestId));
    };
    if (request.refusal !== undefined) return refuse(request.refusal);

    const route = matchRoute(request.method, path);
    if (route === null) return refuse({ code: "not_found" });
    if (route.kind === "read") {
      const confirmed = await keys.confirm(auth);
      if (confirmed.isErr()) return errorResponse(confirmed.error, requestId);
      const query = queryAt < 0 ? {} : parseQueryString(url.slice(queryAt + 1));
      const read = await route.read(
        { storage, projectId: auth.project.id, now: clock.now() },
        route.id,
        query,
      );
      if (read.isErr()) return as(errorResponse(read.error, requestId));
      const body = JSON.stringify(read.value.body);
      return as({ status: 200, headers: { "content-type": JSON_CONTENT_TYPE }, body });
    }
    const contentType = header(headers["content-type"]);
    const key = validateIdempotencyKeyHeader(header(headers["idempotency-key"]));
    // A revoked key's write is refused by storage: answered without the project it claimed.
    const answered = (response: KopekResponse) => (response.status === 401 ? response : as(response));
    // Storage that looks keys up in memory answers a retry of a completed write's exact bytes here,
    // before its body is parsed (idempotency/sent-digest.ts); what the key holds goes on to executeOnce.
    const sent =
      storage.lookupsAreLocal &&
      key.isOk() &&
      bodyRefusal(request.body, contentType, route.body, bodyLimitBytes) === null
        ? sentDigest(request.method, path, request.body)
        : null;
    let held: LookupOutcome | null = null;
    if (sent !== null && key.isOk()) {
      const looked = await lookUpSentBytes(executor, auth, key.value, sent);
      if ("replay" in looked) return answered(looked.replay);
      held = looked.held;
    }
    const body = readJsonBody(request.body, contentType, route.body, bodyLimitBytes);
    if (body.isErr()) return refuse(body.error);
    if (key.isErr()) return refuse(key.error);
    const write = {
      method: request.method,
      path,
      key: key.value,
      body: body.value,
      id: route.id,
      requestId,
      sentDigest: sent,
      held,
    };
    return answered(await executeOnce(executor, auth, route.operation, write));
  }

  const pages = {
    storage,
    clock,
    ids,
    providerFor: options.providerFor,
    publicUrl: baseUrl,
    onAmountMismatch: options.onAmountMismatch,
  };
  return {
    handle,
    errorResponse,
    purgeExpiredIdempotencyKeys: async (limit = 1000) => {
      const purged = await storage.purgeExpiredIdempotencyKeys(clock.now(), limit);
      return purged.mapErr(fromStorageError);
    },
    paymentPage: (invoiceId, projectId = null) => paymentPage(pages, invoiceId, projectId),
    startPayment: (request) => startInvoicePayment(pages, request),
    checkPayment: (request) => checkInvoicePayment(pages, request),
    providerNotification: (request) => handleProviderNotification(pages, request),
    methodUpdates: methodUpdatePages(pages),
  };
}

// A header given more than once arrives as an array from some frameworks: joined, as Node joins it.
function header(value: string | readonly string[] | undefined): string | undefined {
  return typeof value === "string" || value === undefined ? value : value.join(", ");
}
