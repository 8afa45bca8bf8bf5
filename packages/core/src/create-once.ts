import { err, type Result } from "neverthrow";
import type { KopekError } from "./errors.js";
import type { Executor, Write } from "./execute-once.js";
import { decideClaim, isStoredOutcome } from "./idempotency.js";
import type { IdempotentWrite, StoredResponse } from "./ports/idempotency-storage.js";
import type { Operation } from "./routes.js";
import { type Execution, fromStorageError, type Outcome } from "./use-cases/execution.js";
import { replay, responseOf } from "./write-response.js";

/** `createInOneStep`'s answer when the key holds an abandoned execution, for the claim to take over. */
export const TAKE_OVER: unique symbol = Symbol("take over the abandoned execution");

type Build = NonNullable<Operation<unknown>["inOneStep"]>["build"];

/**
 * A write that asks nothing of the provider, stored in one step: the key's record, complete with the
 * response, and the resource, written together when the key is free (`Storage.createOnce`), so
 * there is no lease and, on PostgreSQL, one round trip. Where the key has a record its answer is the
 * claim's: the stored response replayed, 409 while in progress, 422 for another body. Validation
 * runs inside `build`, so a refused body leaves no trace; where the adapter checks the key first,
 * as memory storage does, a replay is answered without validating the body at all.
 */
export async function createInOneStep(
  executor: Executor,
  write: Write,
  validate: Operation<unknown>["validate"],
  build: Build,
): Promise<StoredResponse | typeof TAKE_OVER> {
  const { storage, ids } = executor;
  const { auth, request, fingerprint, now, provider } = write;
  const recordId = ids.newId();
  // What `build` made or why it made nothing, read once `createOnce` has answered.
  const made: { response?: StoredResponse; refusal?: KopekError } = {};
  const created = await storage.createOnce({
    projectId: auth.project.id,
    key: request.key,
    fingerprint,
    recordId,
    now,
    expiresAt: new Date(now.getTime() + executor.ttlMs),
    apiKeyId: auth.keyId,
    build: (): IdempotentWrite | null => {
      const input = validate(request.body, { currencies: provider.capabilities.currencies, now });
      if (input.isErr()) {
        made.refusal = input.error;
        return null;
      }
      const execution: Execution = {
        storage,
        project: auth.project,
        provider,
        recordId,
        now,
        publicUrl: executor.publicUrl,
        ids,
      };
      let outcome: Result<Outcome, KopekError>;
      try {
        outcome = build(execution, input.value);
      } catch (cause) {
        outcome = err({ code: "internal_error", cause });
      }
      if (outcome.isErr() && !isStoredOutcome(outcome.error)) {
        made.refusal = outcome.error;
        return null;
      }
      const response = responseOf(executor.respond, outcome, request.requestId);
      made.response = response;
      return outcome.isOk()
        ? { response, resource: outcome.value.resource, events: outcome.value.events ?? [] }
        : { response, resource: null, events: [] };
    },
  });
  if (created.isErr()) return executor.respond(fromStorageError(created.error), request.requestId);
  const outcome = created.value;
  switch (outcome.kind) {
    case "created":
      return made.response ?? bug("created without building");
    case "not_built":
      return executor.respond(made.refusal ?? bug("not built without a refusal"), request.requestId);
    case "key_revoked":
      executor.keys.forget(auth);
      return executor.respond({ code: "unauthorized" }, request.requestId);
    case "existing": {
      const { record } = outcome;
      const abandoned =
        record.state === "in_progress" &&
        record.fingerprint === fingerprint &&
        record.leaseExpiresAt.getTime() <= now.getTime();
      if (abandoned) return TAKE_OVER;
      const decision = decideClaim(outcome, fingerprint);
      if (decision.action === "replay") return replay(decision.response);
      if (decision.action === "refuse") return executor.respond(decision.error, request.requestId);
      return bug("an existing record to execute");
    }
  }
}

// A storage adapter that broke the `createOnce` contract: thrown, so `handle` answers 500 and logs it.
function bug(what: string): never {
  throw new Error(`createOnce: ${what}`);
}
