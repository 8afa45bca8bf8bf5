import { err, type Result } from "neverthrow";
import { canonicalJson } from "./canonical-json.js";
import type { Project } from "./domain.js";
import type { KopekError } from "./errors.js";
import {
  DEFAULT_LEASE_MS,
  decideClaim,
  fingerprintRequest,
  IDEMPOTENCY_TTL_MS,
  isStoredOutcome,
  MAX_LEASE_MS,
  replayHeaders,
  replayStatus,
  validateIdempotencyKeyHeader,
} from "./idempotency.js";
import { type Clock, systemClock } from "./ports/clock.js";
import type { IdGenerator } from "./ports/id-generator.js";
import type { PaymentProvider } from "./ports/payment-provider.js";
import type { Storage, StoredResponse } from "./ports/storage.js";
import { toProblem } from "./problem.js";
import { type AuthContext, authenticate } from "./use-cases/authenticate.js";
import { createInvoice } from "./use-cases/create-invoice.js";
import { createSubscription } from "./use-cases/create-subscription.js";
import { type Created, type Execution, fromStorageError } from "./use-cases/execution.js";
import { createUuidV7Generator } from "./uuid-v7.js";
import {
  type ValidationContext,
  validateCreateInvoice,
  validateCreateSubscription,
} from "./validation/validate.js";

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
  /** Authenticates an Authorization header. */
  authenticate(authorization: string | undefined): Promise<Result<AuthContext, KopekError>>;
  /** Answers one API call: authentication, idempotency, validation, execution, storage. Never throws. */
  handle(request: KopekRequest): Promise<KopekResponse>;
  /** Renders an error the embedding found itself (bad JSON, too large, …) exactly as Kopek would. */
  errorResponse(error: KopekError, requestId: string): KopekResponse;
  /** Deletes expired idempotency records, at most `limit`. */
  purgeExpiredIdempotencyKeys(limit?: number): Promise<Result<number, KopekError>>;
}

/** One create operation: validated before its key is claimed, run once the key is held. */
interface Operation<Input> {
  readonly path: string;
  readonly validate: (body: unknown, context: ValidationContext) => Result<Input, KopekError>;
  readonly run: (execution: Execution, input: Input) => Promise<Result<Created, KopekError>>;
}

function operation<Input>(definition: Operation<Input>): Operation<unknown> {
  return definition as Operation<unknown>;
}

const JSON_CONTENT_TYPE = "application/json; charset=utf-8";

/** Creates a Kopek instance over a storage and the projects' payment providers. */
export function createKopek(options: KopekOptions): Kopek {
  const clock = options.clock ?? systemClock;
  const ids = options.ids ?? createUuidV7Generator({ clock });
  const ttlMs = options.idempotencyTtlMs ?? IDEMPOTENCY_TTL_MS;
  const leaseMs = Math.min(options.leaseMs ?? DEFAULT_LEASE_MS, MAX_LEASE_MS);
  const publicUrl = options.publicUrl.replace(/\/+$/, "");
  const { storage } = options;

  const operations: Readonly<Record<string, Operation<unknown>>> = {
    "POST /v1/subscriptions": operation({
      path: "/v1/subscriptions",
      validate: validateCreateSubscription,
      run: createSubscription,
    }),
    "POST /v1/invoices": operation({
      path: "/v1/invoices",
      validate: validateCreateInvoice,
      run: createInvoice,
    }),
  };

  function errorResponse(error: KopekError, requestId: string): KopekResponse {
    if ("cause" in error && error.cause !== undefined)
      options.onError?.(error.cause, { requestId, code: error.code });
    const problem = toProblem(error, requestId);
    return { status: problem.status, headers: problem.headers, body: JSON.stringify(problem.body) };
  }

  async function handle(request: KopekRequest): Promise<KopekResponse> {
    const requestId = request.requestId ?? ids.newId();
    try {
      return await dispatch(request, requestId);
    } catch (cause) {
      return errorResponse({ code: "internal_error", cause }, requestId);
    }
  }

  async function dispatch(request: KopekRequest, requestId: string): Promise<KopekResponse> {
    const path = request.path;
    if (path !== "/v1" && !path.startsWith("/v1/")) return errorResponse({ code: "not_found" }, requestId);
    let auth = request.auth;
    if (auth === undefined) {
      const authenticated = await authenticate(storage, request.authorization);
      if (authenticated.isErr()) return errorResponse(authenticated.error, requestId);
      auth = authenticated.value;
    }
    const operation = operations[`${request.method.toUpperCase()} ${path}`];
    if (operation === undefined) return errorResponse({ code: "not_found" }, requestId);
    const key = validateIdempotencyKeyHeader(request.idempotencyKey);
    if (key.isErr()) return errorResponse(key.error, requestId);
    return executeOnce(auth, operation, key.value, request, requestId);
  }

  /** Claims the key, runs the operation once, and stores its outcome with the resource atomically. */
  async function executeOnce(
    auth: AuthContext,
    operation: Operation<unknown>,
    key: string,
    request: KopekRequest,
    requestId: string,
  ): Promise<KopekResponse> {
    const now = clock.now();
    const provider = options.providerFor(auth.project);
    const input = operation.validate(request.body, { currencies: provider.capabilities.currencies, now });
    if (input.isErr()) return errorResponse(input.error, requestId);
    const fingerprint = fingerprintRequest(request.method, operation.path, canonicalJson(request.body));
    const projectId = auth.project.id;
    const leaseToken = ids.newId();
    const claim = await storage.claimIdempotencyKey({
      projectId,
      key,
      fingerprint,
      recordId: ids.newId(),
      leaseToken,
      now,
      leaseExpiresAt: new Date(now.getTime() + leaseMs),
      expiresAt: new Date(now.getTime() + ttlMs),
    });
    if (claim.isErr()) return errorResponse(fromStorageError(claim.error), requestId);
    const decision = decideClaim(claim.value, fingerprint);
    if (decision.action === "refuse") return errorResponse(decision.error, requestId);
    if (decision.action === "replay") {
      const stored = decision.response;
      return { status: replayStatus(stored), headers: replayHeaders(stored), body: stored.body };
    }

    const execution: Execution = {
      project: auth.project,
      provider,
      recordId: decision.recordId,
      now,
      publicUrl,
    };
    let outcome: Result<Created, KopekError>;
    try {
      outcome = await operation.run(execution, input.value);
    } catch (cause) {
      outcome = err({ code: "internal_error", cause });
    }

    if (outcome.isErr() && !isStoredOutcome(outcome.error)) {
      await storage.releaseIdempotencyKey({ projectId, key, leaseToken, now: clock.now() });
      return errorResponse(outcome.error, requestId);
    }
    const response: KopekResponse = outcome.isOk()
      ? {
          status: 201,
          headers: { "content-type": JSON_CONTENT_TYPE, location: outcome.value.location },
          body: JSON.stringify(outcome.value.body),
        }
      : errorResponse(outcome.error, requestId);
    const stored: StoredResponse = response;
    const completed = await storage.completeIdempotencyKey({
      projectId,
      key,
      leaseToken,
      response: stored,
      resource: outcome.isOk() ? outcome.value.resource : null,
      now: clock.now(),
    });
    if (completed.isErr()) {
      if (completed.error.code === "lease_lost")
        return errorResponse({ code: "idempotency_request_in_progress" }, requestId);
      await storage.releaseIdempotencyKey({ projectId, key, leaseToken, now: clock.now() });
      return errorResponse(fromStorageError(completed.error), requestId);
    }
    return response;
  }

  return {
    authenticate: (authorization) => authenticate(storage, authorization),
    handle,
    errorResponse,
    purgeExpiredIdempotencyKeys: async (limit = 1000) => {
      const purged = await storage.purgeExpiredIdempotencyKeys(clock.now(), limit);
      return purged.mapErr(fromStorageError);
    },
  };
}
