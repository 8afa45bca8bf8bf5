import { err, type Result } from "neverthrow";
import { canonicalJson } from "./canonical-json.js";
import type { KopekError } from "./errors.js";
import {
  decideClaim,
  fingerprintRequest,
  isStoredOutcome,
  replayHeaders,
  replayStatus,
} from "./idempotency.js";
import type { KeyCache } from "./key-cache.js";
import type { Clock } from "./ports/clock.js";
import type { IdGenerator } from "./ports/id-generator.js";
import type { PaymentProvider } from "./ports/payment-provider.js";
import type { Storage, StoredResponse } from "./ports/storage.js";
import type { Operation } from "./routes.js";
import type { AuthContext } from "./use-cases/authenticate.js";
import { type Execution, fromStorageError, type Outcome } from "./use-cases/execution.js";

export interface Executor {
  readonly storage: Storage;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly ttlMs: number;
  readonly leaseMs: number;
  readonly publicUrl: string;
  readonly providerFor: (auth: AuthContext) => PaymentProvider;
  readonly respond: (error: KopekError, requestId: string) => StoredResponse;
  /** Where a remembered key is confirmed before any answer the claim did not vouch for. */
  readonly keys: KeyCache;
}

export interface WriteRequest {
  readonly method: string;
  readonly path: string;
  readonly key: string;
  readonly body: unknown;
  readonly id: string;
  readonly requestId: string;
}

const JSON_CONTENT_TYPE = "application/json; charset=utf-8";
/** How often an operation is re-run (re-reading its resource) when its write lost a race. */
const CONFLICT_ATTEMPTS = 3;

/**
 * Runs a write once per Idempotency-Key (API.md 3): validate, claim the key, run, and store the
 * outcome with the resource atomically. Outcomes that reached the operation are stored and replayed;
 * everything else releases the key for a retry.
 */
export async function executeOnce(
  executor: Executor,
  auth: AuthContext,
  operation: Operation<unknown>,
  request: WriteRequest,
): Promise<StoredResponse> {
  const { storage, clock, ids } = executor;
  const now = clock.now();
  const provider = executor.providerFor(auth);
  const input = operation.validate(request.body, { currencies: provider.capabilities.currencies, now });
  if (input.isErr()) {
    // Not claimed, so the key was not checked: a revoked key must get its 401, not a 422.
    const confirmed = await executor.keys.confirm(auth);
    return executor.respond(confirmed.isErr() ? confirmed.error : input.error, request.requestId);
  }
  const fingerprint = fingerprintRequest(request.method, request.path, canonicalJson(request.body));
  const projectId = auth.project.id;
  const { key } = request;
  const leaseToken = ids.newId();
  const claim = await storage.claimIdempotencyKey({
    projectId,
    key,
    fingerprint,
    recordId: ids.newId(),
    leaseToken,
    now,
    leaseExpiresAt: new Date(now.getTime() + executor.leaseMs),
    expiresAt: new Date(now.getTime() + executor.ttlMs),
    apiKeyId: auth.keyId,
  });
  if (claim.isErr()) return executor.respond(fromStorageError(claim.error), request.requestId);
  if (claim.value.kind === "key_revoked") executor.keys.forget(auth);
  const decision = decideClaim(claim.value, fingerprint);
  if (decision.action === "refuse") return executor.respond(decision.error, request.requestId);
  if (decision.action === "replay") {
    const stored = decision.response;
    return { status: replayStatus(stored), headers: replayHeaders(stored), body: stored.body };
  }

  const release = () => storage.releaseIdempotencyKey({ projectId, key, leaseToken, now: clock.now() });
  for (let attempt = 1; ; attempt++) {
    const execution: Execution = {
      storage,
      project: auth.project,
      provider,
      recordId: decision.recordId,
      now: attempt === 1 ? now : clock.now(),
      publicUrl: executor.publicUrl,
      ids,
    };
    let outcome: Result<Outcome, KopekError>;
    try {
      outcome = await operation.run(execution, input.value, request.id);
    } catch (cause) {
      outcome = err({ code: "internal_error", cause });
    }
    if (outcome.isErr() && !isStoredOutcome(outcome.error)) {
      await release();
      return executor.respond(outcome.error, request.requestId);
    }
    const response: StoredResponse = outcome.isOk()
      ? success(outcome.value)
      : executor.respond(outcome.error, request.requestId);
    const completed = await storage.completeIdempotencyKey({
      projectId,
      key,
      leaseToken,
      response,
      resource: outcome.isOk() ? outcome.value.resource : null,
      events: outcome.isOk() ? (outcome.value.events ?? []) : [],
      now: clock.now(),
    });
    if (completed.isOk()) return response;
    const { code } = completed.error;
    if (code === "lease_lost")
      return executor.respond({ code: "idempotency_request_in_progress" }, request.requestId);
    if (code === "conflict" && attempt < CONFLICT_ATTEMPTS) continue;
    await release();
    return executor.respond(fromStorageError(completed.error), request.requestId);
  }
}

function success(outcome: Outcome): StoredResponse {
  const headers: Record<string, string> = { "content-type": JSON_CONTENT_TYPE };
  if (outcome.location !== undefined) headers.location = outcome.location;
  return { status: outcome.status, headers, body: JSON.stringify(outcome.body) };
}
