import { err, type Result } from "neverthrow";
import type { Operation } from "../api/routes.js";
import type { KeyCache } from "../auth/key-cache.js";
import type { AuthContext } from "../auth/look-up-key.js";
import type { KopekError } from "../domain/errors.js";
import type { OnAmountMismatch } from "../payments/amount-rule.js";
import type { Clock } from "../ports/clock.js";
import type { IdGenerator } from "../ports/id-generator.js";
import type {
  ExistingIdempotencyRecord,
  IdempotentWrite,
  LookupOutcome,
  NewIdempotencyRecord,
  StoredResponse,
} from "../ports/idempotency-storage.js";
import type { PaymentProvider } from "../ports/payment-provider.js";
import type { Storage } from "../ports/storage.js";
import type { WebhookUrlProblem } from "../ports/webhook-transport.js";
import { type Execution, fromStorageError, type Outcome } from "../use-cases/execution.js";
import { canonicalJson } from "./canonical-json.js";
import {
  answerFromRecord,
  fingerprintRequest,
  isAbandoned,
  isStoredOutcome,
  replay,
} from "./idempotency-rules.js";

export interface Executor {
  readonly storage: Storage;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly ttlMs: number;
  readonly leaseMs: number;
  /** Base URL of the hosted payment pages, without a trailing slash (read per write). */
  readonly publicUrl: () => string;
  readonly providerFor: (auth: AuthContext) => PaymentProvider;
  /** How long a create waits for a charge the provider answered `pending` (API.md 10.5). */
  readonly pendingChargeWaitMs: number;
  /** Told about every provider word refused for its amount or currency (API.md 10.1). */
  readonly onAmountMismatch?: OnAmountMismatch | undefined;
  readonly webhookUrlProblem: WebhookUrlProblem;
  readonly respond: (error: KopekError, requestId: string) => StoredResponse;
  /** Forgets a remembered key that storage found revoked. */
  readonly keys: KeyCache;
}

export interface WriteRequest {
  readonly method: string;
  readonly path: string;
  readonly key: string;
  readonly body: unknown;
  /** The resource id in the path (a cancel's), or "". */
  readonly id: string;
  readonly requestId: string;
  /** The request's `sentDigest`, when storage looks keys up locally and the body has one; else null. */
  readonly sentDigest: string | null;
  /** What the key held when `lookUpSentBytes` looked it up before the body was read; else null. */
  readonly held: LookupOutcome | null;
}

/** How often an operation is re-run (re-reading its resource) when its write lost a race. */
const CONFLICT_ATTEMPTS = 3;

/**
 * Runs a write once per Idempotency-Key (API.md 3), in one order for every operation: validate, then
 * build the outcome from the request alone where the operation can (`Operation.build`: stored with its
 * key in one step, `Storage.createOnce`), else claim the key, run, and store the outcome with the
 * key (`completeIdempotencyKey`). A key that already has a record is answered from it — the stored
 * response replayed, 409 while in progress, 422 for another body — also when this body is refused,
 * so a replay returns the stored response whatever the time-dependent rules say now. A refused body
 * leaves no trace. Outcomes that reached the operation are stored; any other failure releases the key.
 */
export async function executeOnce(
  executor: Executor,
  auth: AuthContext,
  operation: Operation<unknown>,
  request: WriteRequest,
): Promise<StoredResponse> {
  const now = executor.clock.now();
  const provider = executor.providerFor(auth);
  const record: NewIdempotencyRecord = {
    projectId: auth.project.id,
    key: request.key,
    now,
    apiKeyId: auth.keyId,
    fingerprint: fingerprintRequest(request.method, request.path, canonicalJson(request.body)),
    recordId: executor.ids.newId(),
    expiresAt: new Date(now.getTime() + executor.ttlMs),
    sentDigest: request.sentDigest ?? undefined,
  };
  // Storage that looks keys up in this process's memory answers a retry first, with no round trip:
  // a replay then costs neither validating nor building. A database's own write answers it instead.
  if (executor.storage.lookupsAreLocal) {
    const held = await answerFromKey(executor, auth, record, request.requestId, request.held);
    if (held !== null) return held;
  }
  const input = operation.validate(request.body, { currencies: provider.capabilities.currencies, now });
  if (input.isErr()) return refuse(executor, auth, record, input.error, request.requestId);

  const execution = executionOf(executor, auth, provider, record.recordId, now);
  const built = guarded(() => operation.build?.(execution, input.value) ?? null);
  if (built !== null) {
    const answer = await storeInOneStep(executor, auth, record, built, request.requestId);
    // An execution of this request abandoned by a crashed process is taken over below.
    if (answer !== null) return answer;
  }
  return claimAndRun(executor, auth, record, request.requestId, (at, recordId) =>
    operation.run(executionOf(executor, auth, provider, recordId, at), input.value, request.id),
  );
}

/** Stores a built outcome with its key; null when the key holds an abandoned execution to take over. */
async function storeInOneStep(
  executor: Executor,
  auth: AuthContext,
  record: NewIdempotencyRecord,
  outcome: Result<Outcome, KopekError>,
  requestId: string,
): Promise<StoredResponse | null> {
  if (outcome.isErr() && !isStoredOutcome(outcome.error))
    return refuse(executor, auth, record, outcome.error, requestId);
  const write = writeOf(executor, outcome, requestId);
  if (write.resource !== null && write.resource.kind !== "invoice")
    throw new Error("executeOnce: a one-step operation built something other than an invoice");
  if (write.payments.length > 0) throw new Error("executeOnce: a one-step operation recorded a payment");
  const created = await executor.storage.createOnce(record, {
    ...write,
    resource: write.resource,
    payments: [],
  });
  if (created.isErr()) return executor.respond(fromStorageError(created.error), requestId);
  const stored = created.value;
  if (stored.kind === "created") return write.response;
  if (stored.kind === "key_revoked") return revoked(executor, auth, requestId);
  if (isAbandoned(stored.record, record.fingerprint, record.now)) return null;
  return answer(executor, stored.record, record.fingerprint, requestId);
}

async function claimAndRun(
  executor: Executor,
  auth: AuthContext,
  record: NewIdempotencyRecord,
  requestId: string,
  run: (now: Date, recordId: string) => Promise<Result<Outcome, KopekError>>,
): Promise<StoredResponse> {
  const { storage, clock, ids } = executor;
  const { projectId, key, now } = record;
  const leaseToken = ids.newId();
  // The new keys first, then the spread: on Node 20 a spread followed by new keys is slow and its
  // objects outlive young collections (`withHeader`; docs/performance-log.md, "Object spread on
  // Node 20").
  const claim = await storage.claimIdempotencyKey({
    leaseToken,
    leaseExpiresAt: new Date(now.getTime() + executor.leaseMs),
    ...record,
  });
  if (claim.isErr()) return executor.respond(fromStorageError(claim.error), requestId);
  const claimed = claim.value;
  if (claimed.kind === "key_revoked") return revoked(executor, auth, requestId);
  if (claimed.kind === "existing") return answer(executor, claimed.record, record.fingerprint, requestId);
  const release = () => storage.releaseIdempotencyKey({ projectId, key, leaseToken, now: clock.now() });

  for (let attempt = 1; ; attempt++) {
    let outcome: Result<Outcome, KopekError>;
    try {
      outcome = await run(attempt === 1 ? now : clock.now(), claimed.recordId);
    } catch (cause) {
      outcome = err({ code: "internal_error", cause });
    }
    if (outcome.isErr() && !isStoredOutcome(outcome.error)) {
      await release();
      return executor.respond(outcome.error, requestId);
    }
    const write = writeOf(executor, outcome, requestId);
    const completed = await storage.completeIdempotencyKey({
      projectId,
      key,
      leaseToken,
      now: clock.now(),
      ...write,
    });
    if (completed.isOk()) return answeredNow(write, outcome);
    const { code } = completed.error;
    if (code === "lease_lost")
      return executor.respond({ code: "idempotency_request_in_progress" }, requestId);
    if (code === "conflict" && attempt < CONFLICT_ATTEMPTS) continue;
    await release();
    const duplicate = outcome.isOk() ? outcome.value.onDuplicate : undefined;
    if (code === "duplicate" && duplicate !== undefined) return executor.respond(duplicate, requestId);
    return executor.respond(fromStorageError(completed.error), requestId);
  }
}

/**
 * A request refused before anything was stored: answered from the key's record when it has one (a
 * replay stays a replay), else with the refusal. The lookup checks the API key too.
 */
async function refuse(
  executor: Executor,
  auth: AuthContext,
  record: NewIdempotencyRecord,
  error: KopekError,
  requestId: string,
): Promise<StoredResponse> {
  return (await answerFromKey(executor, auth, record, requestId)) ?? executor.respond(error, requestId);
}

/**
 * The answer the key's record gives this request, or null when the key is free for it (or abandoned);
 * `looked` is what the key held when it was looked up earlier in this request, if it was.
 */
async function answerFromKey(
  executor: Executor,
  auth: AuthContext,
  record: NewIdempotencyRecord,
  requestId: string,
  looked: LookupOutcome | null = null,
): Promise<StoredResponse | null> {
  let held = looked;
  if (held === null) {
    const found = await executor.storage.findIdempotencyRecord(record);
    if (found.isErr()) return executor.respond(fromStorageError(found.error), requestId);
    held = found.value;
  }
  if (held.kind === "key_revoked") return revoked(executor, auth, requestId);
  if (held.kind === "free" || isAbandoned(held.record, record.fingerprint, record.now)) return null;
  return answer(executor, held.record, record.fingerprint, requestId);
}

function answer(
  executor: Executor,
  record: ExistingIdempotencyRecord,
  fingerprint: string,
  requestId: string,
): StoredResponse {
  const decided = answerFromRecord(record, fingerprint);
  return decided.action === "replay" ? replay(decided.response) : executor.respond(decided.error, requestId);
}

function revoked(executor: Executor, auth: AuthContext, requestId: string): StoredResponse {
  executor.keys.forget(auth);
  return executor.respond({ code: "unauthorized" }, requestId);
}

const JSON_CONTENT_TYPE = "application/json; charset=utf-8";

/** What an outcome that reached the operation stores: its response, and its resource and events. */
function writeOf(
  executor: Executor,
  outcome: Result<Outcome, KopekError>,
  requestId: string,
): IdempotentWrite {
  if (outcome.isErr())
    return { response: executor.respond(outcome.error, requestId), resource: null, events: [], payments: [] };
  const { status, location, body, replayBody, resource, events, payments } = outcome.value;
  const headers: Record<string, string> = { "content-type": JSON_CONTENT_TYPE };
  if (location !== undefined) headers.location = location;
  return {
    response: { status, headers, body: JSON.stringify(replayBody ?? body) },
    resource,
    events: events ?? [],
    payments: payments ?? [],
  };
}

/** The answer of the execution itself: the stored response, or the body it shows only now (`replayBody`). */
function answeredNow(write: IdempotentWrite, outcome: Result<Outcome, KopekError>): StoredResponse {
  if (outcome.isErr() || outcome.value.replayBody === undefined) return write.response;
  return { ...write.response, body: JSON.stringify(outcome.value.body) };
}

function executionOf(
  executor: Executor,
  auth: AuthContext,
  provider: PaymentProvider,
  recordId: string,
  now: Date,
): Execution {
  const { storage, ids } = executor;
  return {
    storage,
    project: auth.project,
    provider,
    recordId,
    now,
    publicUrl: executor.publicUrl(),
    ids,
    pendingChargeWaitMs: executor.pendingChargeWaitMs,
    onAmountMismatch: executor.onAmountMismatch,
    webhookUrlProblem: executor.webhookUrlProblem,
  };
}

// A throw in a synchronous build is a bug: answered 500 (and logged) like one in `run`.
function guarded(build: () => Result<Outcome, KopekError> | null): Result<Outcome, KopekError> | null {
  try {
    return build();
  } catch (cause) {
    return err({ code: "internal_error", cause });
  }
}
