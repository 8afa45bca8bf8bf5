import { err, ok, type Result } from "neverthrow";
import { createUuidV7Generator } from "../crypto/uuid-v7.js";
import type { KopekError } from "../domain/errors.js";
import { DEFAULT_PENDING_CHARGE_WAIT_MS } from "../domain/limits.js";
import type { Project } from "../domain/project.js";
import type { OnAmountMismatch } from "../payments/amount-rule.js";
import { type Clock, systemClock } from "../ports/clock.js";
import type { PaymentProvider } from "../ports/payment-provider.js";
import type { Storage } from "../ports/storage.js";
import type { WebhookUrlProblem } from "../ports/webhook-transport.js";
import { httpsOnly } from "../webhooks/webhook-endpoints.js";
import { type Execution, fromStorageError, type Outcome } from "./execution.js";

export interface OperatorExecutionOptions {
  readonly storage: Storage;
  readonly providerFor: (project: Project) => PaymentProvider;
  readonly clock?: Clock;
  readonly onAmountMismatch?: OnAmountMismatch;
  /** Base URL of the hosted pages, for a command that hands out a link (a method update); "" otherwise. */
  readonly publicUrl?: string;
  /** The rule on a webhook endpoint's URL, the server's as the API's (default: any https:// URL). */
  readonly webhookUrlProblem?: WebhookUrlProblem;
}

/**
 * Runs one of the API's use cases for an operator's command (`kopek subscriptions resume`, `kopek
 * customers erase`): the same rules, money steps and events, on a project's resource, its outcome
 * stored as the API stores it. There is no idempotency key: the execution's record is new each run, so
 * a command run again is a new request (a charge it makes carries a key of its own that does not
 * depend on the record, as a resume's renewal key). Answers the body the API would.
 */
export async function runAsOperator(
  options: OperatorExecutionOptions,
  projectId: string,
  run: (execution: Execution) => Promise<Result<Outcome, KopekError>>,
): Promise<Result<unknown, KopekError>> {
  const { storage } = options;
  const clock = options.clock ?? systemClock;
  const found = await storage.findProject(projectId);
  if (found.isErr()) return err(fromStorageError(found.error));
  const project = found.value;
  if (project === null) return err({ code: "not_found" });
  const ids = createUuidV7Generator({ clock });
  const execution: Execution = {
    storage,
    project,
    provider: options.providerFor(project),
    recordId: ids.newId(),
    now: clock.now(),
    publicUrl: (options.publicUrl ?? "").replace(/\/+$/, ""),
    ids,
    pendingChargeWaitMs: DEFAULT_PENDING_CHARGE_WAIT_MS,
    onAmountMismatch: options.onAmountMismatch,
    webhookUrlProblem: options.webhookUrlProblem ?? httpsOnly,
  };
  const outcome = await run(execution);
  if (outcome.isErr()) return err(outcome.error);
  const { resource, events = [], payments = [], body } = outcome.value;
  if (resource?.kind === "subscription") {
    const saved = await storage.saveSubscription(resource.subscription, events, payments);
    if (saved.isErr()) return err(fromStorageError(saved.error));
  } else if (resource !== null) {
    return err({
      code: "internal_error",
      cause: new Error(`runAsOperator: cannot store a new ${resource.kind}`),
    });
  }
  return ok(body);
}
