import { err, ok, type Result } from "neverthrow";
import type { KopekError } from "../domain/errors.js";
import {
  METHOD_SAVE_UNANSWERED_MS,
  type MethodSave,
  type MethodUpdate,
  withFinalSave,
} from "../domain/method-update.js";
import type { Subscription } from "../domain/model.js";
import type { Project } from "../domain/project.js";
import type { MethodSaveState } from "../ports/method-saves.js";
import { fromProviderError, fromStorageError } from "../use-cases/execution.js";
import type { InvoicePaymentContext } from "./invoice-payments.js";
import { methodSaveReturnPath } from "./page-paths.js";
import type { SettleContext } from "./settle-payment.js";
import { putMethodOn } from "./settle-verification.js";

/** How many times a write that lost a race re-reads and tries again. */
const ATTEMPTS = 3;

/** A save younger than this is left to the payer's return: the reconciler asks about older ones. */
const RECONCILE_AFTER_MS = 30_000;

/** The provider key of a save with no payment: derived from its id alone. */
export function methodSaveKey(saveId: string): string {
  return `kopek:method-save:${saveId}`;
}

/**
 * Starts a recorded save at the provider (API.md 11.5) and stores its ref on the save: where to send the
 * payer. A provider that started nothing the payer could confirm (a refusal, or no answer: the payer
 * never got its page) ends the save `failed`, and the payer may choose again.
 */
export async function startSave(
  context: InvoicePaymentContext,
  project: Project,
  subscription: Subscription,
  save: MethodSave,
): Promise<Result<string, KopekError>> {
  const saves = context.providerFor(project).methodSaves;
  const update = subscription.methodUpdate as MethodUpdate;
  if (saves === undefined)
    return err({ code: "internal_error", cause: new Error("method save: the provider saves nothing") });
  const returnPath = methodSaveReturnPath(project.id, subscription.id, update.id, save.id);
  const started = await saves.start({
    saveId: save.id,
    method: save.method,
    returnUrl: `${context.publicUrl()}${returnPath}`,
    idempotencyKey: methodSaveKey(save.id),
  });
  if (started.isErr()) {
    const ended = await finishSave(context, subscription, save.id, "failed");
    if (ended.isErr()) return err(ended.error);
    return err(fromProviderError(started.error));
  }
  const recorded = await changeSave(context, subscription, save.id, (update) => ({
    ...update,
    saves: update.saves.map((s) => (s.id === save.id ? { ...s, ref: started.value.saveRef } : s)),
  }));
  if (recorded.isErr()) return err(recorded.error);
  const { confirmationUrl } = started.value;
  return ok(confirmationUrl.startsWith("/") ? `${context.publicUrl()}${confirmationUrl}` : confirmationUrl);
}

/**
 * Asks the provider how a pending save stands and acts on its word (10.1): `saved` puts the method on
 * (`putMethodOn`, as a verification payment's would), `failed` ends the save. No answer, or `pending`,
 * changes nothing (asked again later). The save's state after.
 */
export async function askAboutSave(
  context: SettleContext,
  project: Project,
  subscription: Subscription,
  save: MethodSave,
): Promise<Result<MethodSave["state"], KopekError>> {
  const saves = context.providerFor(project).methodSaves;
  if (save.state !== "pending" || save.ref === null || saves === undefined) return ok(save.state);
  const answer = await saves.get(save.ref);
  if (answer.isErr()) return ok("pending");
  return settleSave(context, subscription, save, answer.value);
}

async function settleSave(
  context: SettleContext,
  subscription: Subscription,
  save: MethodSave,
  answer: MethodSaveState,
): Promise<Result<MethodSave["state"], KopekError>> {
  if (answer.status === "pending") return ok("pending");
  if (answer.status === "failed")
    return (await finishSave(context, subscription, save.id, "failed")).map(() => "failed" as const);
  const source = {
    id: save.id,
    projectId: subscription.projectId,
    subscriptionId: subscription.id,
    method: save.method,
    methodMask: null,
  };
  const put = await putMethodOn(context, source, answer.savedMethod, context.clock.now());
  return put.map(() => "saved" as const);
}

/** Ends a pending save (its ref dropped); a save already final is left as it is. */
function finishSave(
  context: SettleContext,
  subscription: Subscription,
  saveId: string,
  state: "failed",
): Promise<Result<void, KopekError>> {
  return changeSave(context, subscription, saveId, (update) => withFinalSave(update, saveId, state));
}

/**
 * Changes the subscription's link in a version-checked write, re-reading after a lost race; `change`
 * answers null when there is nothing (more) to change.
 */
async function changeSave(
  context: SettleContext,
  from: Subscription,
  saveId: string,
  change: (update: MethodUpdate) => MethodUpdate | null,
): Promise<Result<void, KopekError>> {
  let current: Subscription | null = from;
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    if (current === null) return ok(undefined);
    const update = current.methodUpdate;
    const save = update?.saves.find((s) => s.id === saveId);
    const changed = update === null || save?.state !== "pending" ? null : change(update);
    if (changed === null) return ok(undefined);
    const next: Subscription = { ...current, methodUpdate: changed, version: current.version + 1 };
    const written = await context.storage.saveSubscription(next, [], []);
    if (written.isOk()) return ok(undefined);
    if (written.error.code !== "conflict") return err(fromStorageError(written.error));
    const found = await context.storage.findSubscription(from.projectId, from.id);
    if (found.isErr()) return err(fromStorageError(found.error));
    current = found.value;
  }
  return err({ code: "internal_error", cause: new Error("method save: the subscription kept changing") });
}

/**
 * Reconciliation of saves with no payment (API.md 11.5): every pending save older than half a minute is
 * asked about, so a payer who never came back to Kopek's page (T-Bank always sends the payer to the
 * terminal's own page) loses nothing. A save whose start was never answered ends `failed` after
 * `METHOD_SAVE_UNANSWERED_MS` (its payer never got the provider's page); one still pending once its
 * link expired ends `failed` too, so nothing is asked about forever. How many saves were asked about,
 * and how many of them are final now.
 */
export async function checkPendingSaves(
  context: SettleContext & { readonly batchSize: number; readonly onError?: (cause: unknown) => void },
): Promise<{ readonly claimed: number; readonly settled: number }> {
  const listed = await context.storage.listPendingMethodSaves(context.batchSize);
  if (listed.isErr()) throw listed.error;
  let claimed = 0;
  let settled = 0;
  for (const subscription of listed.value) {
    const project = await context.storage.findProject(subscription.projectId);
    if (project.isErr()) throw project.error;
    const update = subscription.methodUpdate;
    if (project.value === null || update === null) continue;
    for (const save of update.saves) {
      const age = context.clock.now().getTime() - save.startedAt.getTime();
      if (save.state !== "pending" || age < RECONCILE_AFTER_MS) continue;
      claimed += 1;
      try {
        const state = await reconcileSave(context, project.value, subscription, save, age);
        if (state !== "pending") settled += 1;
      } catch (cause) {
        context.onError?.(cause);
      }
    }
  }
  return { claimed, settled };
}

async function reconcileSave(
  context: SettleContext,
  project: Project,
  subscription: Subscription,
  save: MethodSave,
  age: number,
): Promise<MethodSave["state"]> {
  const update = subscription.methodUpdate as MethodUpdate;
  const lapsed =
    save.ref === null
      ? age >= METHOD_SAVE_UNANSWERED_MS
      : update.expiresAt.getTime() <= context.clock.now().getTime();
  const asked = await askAboutSave(context, project, subscription, save);
  if (asked.isErr()) throw asked.error;
  if (asked.value !== "pending" || !lapsed) return asked.value;
  // Re-read: the answer above may have changed the subscription.
  const found = await context.storage.findSubscription(subscription.projectId, subscription.id);
  if (found.isErr()) throw found.error;
  if (found.value === null) return "failed";
  const ended = await finishSave(context, found.value, save.id, "failed");
  if (ended.isErr()) throw ended.error;
  return "failed";
}
