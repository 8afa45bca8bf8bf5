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
import { type Executor, executeOnce } from "./idempotency/execute-once.js";
import {
  DEFAULT_LEASE_MS,
  IDEMPOTENCY_TTL_MS,
  MAX_LEASE_MS,
  validateIdempotencyKeyHeader,
} from "./idempotency/idempotency-rules.js";
import { lookUpSentBytes, sentDigest } from "./idempotency/sent-digest.js";
import type { Kopek, KopekOptions, KopekRequest, KopekResponse } from "./kopek-types.js";
import { checkInvoicePayment, startInvoicePayment } from "./payments/invoice-payments.js";
import { methodUpdatePages } from "./payments/method-update-page.js";
import { paymentPage } from "./payments/payment-page.js";
import { handleProviderNotification } from "./payments/provider-notifications.js";
import { millisecondsOf, systemClock } from "./ports/clock.js";
import type { LookupOutcome } from "./ports/idempotency-storage.js";
import { fromStorageError } from "./use-cases/execution.js";
import { httpsOnly } from "./webhooks/webhook-endpoints.js";

export type { Kopek, KopekOptions, KopekRequest, KopekResponse } from "./kopek-types.js";
export type { AuthContext };
export { DEFAULT_PENDING_CHARGE_WAIT_MS };

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
    webhookUrlProblem: options.webhookUrlProblem ?? httpsOnly,
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
