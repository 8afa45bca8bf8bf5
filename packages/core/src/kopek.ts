import type { Result } from "neverthrow";
import type { Project } from "./domain.js";
import type { KopekError } from "./errors.js";
import { type Executor, executeOnce } from "./execute-once.js";
import {
  DEFAULT_LEASE_MS,
  IDEMPOTENCY_TTL_MS,
  MAX_LEASE_MS,
  validateIdempotencyKeyHeader,
} from "./idempotency.js";
import { KeyCache } from "./key-cache.js";
import type { QueryParameters } from "./list-query.js";
import {
  type PayInvoiceRequest,
  type PaymentPage,
  type PaymentResult,
  payInvoice,
  paymentPage,
} from "./payments/payment-page.js";
import { type Clock, millisecondsOf, systemClock } from "./ports/clock.js";
import type { IdGenerator } from "./ports/id-generator.js";
import type { PaymentProvider } from "./ports/payment-provider.js";
import type { Storage } from "./ports/storage.js";
import { toProblem } from "./problem.js";
import { matchRoute } from "./routes.js";
import type { AuthContext } from "./use-cases/authenticate.js";
import { fromStorageError } from "./use-cases/execution.js";
import { createUuidV7Generator } from "./uuid-v7.js";

export type { AuthContext };

export interface KopekOptions {
  readonly storage: Storage;
  /** The payment provider that serves a project (by its provider settings). */
  readonly providerFor: (project: Project) => PaymentProvider;
  /** Base URL of the hosted payment pages (`paymentUrl` = publicUrl + /pay/{id}). */
  readonly publicUrl: string;
  readonly clock?: Clock;
  readonly ids?: IdGenerator;
  /** How long idempotency keys are remembered; default 24 h (API.md 3). */
  readonly idempotencyTtlMs?: number;
  /** How long an executing request holds its key; default 30 s, at most 60 s. */
  readonly leaseMs?: number;
  /** Called with the cause of every 5xx answer, for the embedding's log. */
  readonly onError?: (cause: unknown, context: { readonly requestId: string; readonly code: string }) => void;
}

/** One API call, as any HTTP framework can describe it. */
export interface KopekRequest {
  readonly method: string;
  /** The path without the query string, e.g. `/v1/invoices`. */
  readonly path: string;
  /** The query string's parameters, for the list endpoints. */
  readonly query?: QueryParameters | undefined;
  readonly authorization?: string | undefined;
  readonly idempotencyKey?: string | undefined;
  /** The parsed JSON body. */
  readonly body?: unknown;
  readonly requestId?: string | undefined;
  /** Set when the caller already authenticated the request with `kopek.authenticate`. */
  readonly auth?: AuthContext | undefined;
}

/** The answer to send: status, headers (lower-case names) and the exact body bytes. */
export interface KopekResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

export interface Kopek {
  /**
   * Authenticates an Authorization header. The answer may come from a short-lived cache of key
   * lookups; `handle` re-checks such a context against revocation before it acts on it (see `confirm`).
   */
  authenticate(authorization: string | undefined): Promise<Result<AuthContext, KopekError>>;
  /**
   * The context again if its key is still valid: one `authenticate` served from its cache is looked up
   * afresh (a revoked key gives `unauthorized`), any other is returned as it is. For an embedding that
   * answers a request itself (a body it could not parse, say) after authenticating it.
   */
  confirm(auth: AuthContext): Promise<Result<AuthContext, KopekError>>;
  /** Answers one API call: authentication, idempotency, validation, execution, storage. Never throws. */
  handle(request: KopekRequest): Promise<KopekResponse>;
  /** Renders an error the embedding found itself (bad JSON, too large, …) exactly as Kopek would. */
  errorResponse(error: KopekError, requestId: string): KopekResponse;
  /** Deletes expired idempotency records, at most `limit`. */
  purgeExpiredIdempotencyKeys(limit?: number): Promise<Result<number, KopekError>>;
  /** What the hosted payment page shows for an invoice (no API key: the id is the capability). */
  paymentPage(invoiceId: string): Promise<Result<PaymentPage, KopekError>>;
  /** The payer pays (or, in the sandbox, declines) on the hosted page. */
  payInvoice(request: PayInvoiceRequest): Promise<Result<PaymentResult, KopekError>>;
}

const JSON_CONTENT_TYPE = "application/json; charset=utf-8";

/** Creates a Kopek instance over a storage and the projects' payment providers. */
export function createKopek(options: KopekOptions): Kopek {
  const clock = options.clock ?? systemClock;
  const ids = options.ids ?? createUuidV7Generator({ clock });
  const { storage } = options;
  const keys = new KeyCache(storage, millisecondsOf(clock));

  function errorResponse(error: KopekError, requestId: string): KopekResponse {
    if ("cause" in error && error.cause !== undefined)
      options.onError?.(error.cause, { requestId, code: error.code });
    const problem = toProblem(error, requestId);
    return { status: problem.status, headers: problem.headers, body: JSON.stringify(problem.body) };
  }

  // Built once: only the request id varies per request, and it travels with the write.
  const executor: Executor = {
    storage,
    clock,
    ids,
    ttlMs: options.idempotencyTtlMs ?? IDEMPOTENCY_TTL_MS,
    leaseMs: Math.min(options.leaseMs ?? DEFAULT_LEASE_MS, MAX_LEASE_MS),
    publicUrl: options.publicUrl.replace(/\/+$/, ""),
    providerFor: (auth) => options.providerFor(auth.project),
    respond: errorResponse,
    keys,
  };

  async function handle(request: KopekRequest): Promise<KopekResponse> {
    const requestId = request.requestId ?? ids.newId();
    try {
      return await dispatch(request, requestId);
    } catch (cause) {
      return errorResponse({ code: "internal_error", cause }, requestId);
    }
  }

  async function dispatch(request: KopekRequest, requestId: string): Promise<KopekResponse> {
    const { path } = request;
    if (path !== "/v1" && !path.startsWith("/v1/")) return errorResponse({ code: "not_found" }, requestId);
    let auth = request.auth;
    if (auth === undefined) {
      const authenticated = await keys.authenticate(request.authorization);
      if (authenticated.isErr()) return errorResponse(authenticated.error, requestId);
      auth = authenticated.value;
    }
    const route = matchRoute(request.method, path);
    // Only a write's claim checks the key itself (atomically); every other answer confirms it first.
    if (route === null || route.kind === "read") {
      const confirmed = await keys.confirm(auth);
      if (confirmed.isErr()) return errorResponse(confirmed.error, requestId);
      if (route === null) return errorResponse({ code: "not_found" }, requestId);
      const context = { storage, projectId: confirmed.value.project.id, now: clock.now() };
      const read = await route.read(context, route.id, request.query ?? {});
      if (read.isErr()) return errorResponse(read.error, requestId);
      return {
        status: 200,
        headers: { "content-type": JSON_CONTENT_TYPE },
        body: JSON.stringify(read.value.body),
      };
    }
    const key = validateIdempotencyKeyHeader(request.idempotencyKey);
    if (key.isErr()) {
      const confirmed = await keys.confirm(auth);
      return errorResponse(confirmed.isErr() ? confirmed.error : key.error, requestId);
    }
    const write = {
      method: request.method,
      path,
      key: key.value,
      body: request.body,
      id: route.id,
      requestId,
    };
    return executeOnce(executor, auth, route.operation, write);
  }

  return {
    authenticate: (authorization) => keys.authenticate(authorization),
    confirm: (auth) => keys.confirm(auth),
    handle,
    errorResponse,
    purgeExpiredIdempotencyKeys: async (limit = 1000) => {
      const purged = await storage.purgeExpiredIdempotencyKeys(clock.now(), limit);
      return purged.mapErr(fromStorageError);
    },
    paymentPage: (invoiceId) => paymentPage({ storage, clock, ids }, invoiceId),
    payInvoice: (request) => payInvoice({ storage, clock, ids }, request),
  };
}
