import { err, type Result } from "neverthrow";
import { canonicalJson } from "./canonical-json.js";
import { createInOneStep, TAKE_OVER } from "./create-once.js";
import type { KopekError } from "./errors.js";
import { decideClaim, fingerprintRequest, isStoredOutcome } from "./idempotency.js";
import type { KeyCache } from "./key-cache.js";
import type { Clock } from "./ports/clock.js";
import type { IdGenerator } from "./ports/id-generator.js";
import type { PaymentProvider } from "./ports/payment-provider.js";
import type { StoredResponse } from "./ports/idempotency-storage.js";
import type { Storage } from "./ports/storage.js";
import type { Operation } from "./routes.js";
import type { AuthContext } from "./use-cases/authenticate.js";
import { type Execution, fromStorageError, type Outcome } from "./use-cases/execution.js";
import { replay, responseOf } from "./write-response.js";

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

/** One write as `executeOnce` sees it once its fingerprint is known. */
export interface Write {
  readonly auth: AuthContext;
  readonly request: WriteRequest;
  readonly fingerprint: string;
  readonly now: Date;
  readonly provider: PaymentProvider;
}

/** How often an operation is re-run (re-reading its resource) when its write lost a race. */
const CONFLICT_ATTEMPTS = 3;

/**
 * Runs a write once per Idempotency-Key (API.md 3). An operation that asks nothing of the provider is
 * stored with its key in one step (`createInOneStep`); any other claims the key, is validated, runs,
 * and is stored with its resource atomically. Either way a key that already has a record is answered
 * from it before the body is validated, so a replay returns the stored response whatever the
 * time-dependent rules say now; and a body that fails validation leaves no trace. Outcomes that reached
 * the operation are stored and replayed; everything else releases the key for a retry.
 */
export async function executeOnce(
  executor: Executor,
  auth: AuthContext,
  operation: Operation<unknown>,
  request: WriteRequest,
): Promise<StoredResponse> {
  const write: Write = {
    auth,
    request,
    fingerprint: fingerprintRequest(request.method, request.path, canonicalJson(request.body)),
    now: executor.clock.now(),
    provider: executor.providerFor(auth),
  };
  const oneStep = operation.inOneStep;
  if (oneStep?.appliesTo(write.provider)) {
    const answer = await createInOneStep(executor, write, operation.validate, oneStep.build);
    // An execution abandoned by a crashed process is taken over below, under its own record id.
    if (answer !== TAKE_OVER) return answer;
  }
  return claimAndRun(executor, write, operation);
}

async function claimAndRun(
  executor: Executor,
  write: Write,
  operation: Operation<unknown>,
): Promise<StoredResponse> {
  const { storage, clock, ids } = executor;
  const { auth, request, fingerprint, now, provider } = write;
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
  if (decision.action === "replay") return replay(decision.response);

  const input = operation.validate(request.body, { currencies: provider.capabilities.currencies, now });
  if (input.isErr()) {
    // A taken-over record keeps its id (a crashed execution may have reached the provider with keys
    // derived from it), so it is only released; a fresh claim is withdrawn.
    if (claim.value.kind === "claimed" && claim.value.takenOver)
      await release(executor, projectId, key, leaseToken);
    else await storage.withdrawIdempotencyClaim({ projectId, key, leaseToken });
    return executor.respond(input.error, request.requestId);
  }

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
      await release(executor, projectId, key, leaseToken);
      return executor.respond(outcome.error, request.requestId);
    }
    const response = responseOf(executor.respond, outcome, request.requestId);
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
    await release(executor, projectId, key, leaseToken);
    return executor.respond(fromStorageError(completed.error), request.requestId);
  }
}

function release(executor: Executor, projectId: string, key: string, leaseToken: string) {
  return executor.storage.releaseIdempotencyKey({ projectId, key, leaseToken, now: executor.clock.now() });
}
