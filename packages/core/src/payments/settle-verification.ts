import { err, ok, type Result } from "neverthrow";
import type { KopekError } from "../domain/errors.js";
import { type MethodUpdate, withFinalSave } from "../domain/method-update.js";
import type { PaymentMethod, Subscription } from "../domain/model.js";
import { subscriptionEvent } from "../events/domain-event.js";
import type { ProviderSavedMethod } from "../ports/payment-provider.js";
import type { StorageError } from "../ports/storage-error.js";
import { findOpenCharge } from "../renewals/open-charge.js";
import { fromStorageError } from "../use-cases/execution.js";
import type { PaymentContext } from "./payment-page.js";

/** How many times a write that lost a race re-reads and tries again. */
const ATTEMPTS = 3;

/** What saved a method: a verification Payment, or a save with no payment (its `id`; no mask of its own). */
export interface MethodSource {
  readonly id: string;
  readonly projectId: string;
  readonly subscriptionId: string | null;
  readonly method: PaymentMethod;
  readonly methodMask: string | null;
}

/**
 * A verification payment succeeded, or a save with no payment did (API.md 11.5): the method the
 * provider saved goes on its subscription — `method`, `methodMask` and the token change, the link is
 * marked completed by it (a save marked `saved`), and `subscription.method_updated` is stored in the
 * same version-checked write. A past-due subscription with no charge open is made due now, so the
 * renewal worker charges the overdue cycle on its next tick from the new method (one with a charge open
 * keeps it: that charge is settled first, never sent twice). Nothing is put on when the provider saved
 * nothing, when the subscription is gone or canceled, or when this method is on already (a settle run
 * again after a crash); a save is then only marked final. The caller refunds a verification payment
 * after this, so a crash in between leaves it pending and it is settled again.
 */
export async function putMethodOn(
  context: PaymentContext,
  source: MethodSource,
  saved: ProviderSavedMethod | null,
  now: Date,
): Promise<Result<void, KopekError>> {
  if (saved === null || source.subscriptionId === null) return ok(undefined);
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const found = await context.storage.findSubscription(source.projectId, source.subscriptionId);
    if (found.isErr()) return err(fromStorageError(found.error));
    const current = found.value;
    if (current === null) return ok(undefined);
    const finalSave = withFinalSave(current.methodUpdate, source.id, "saved");
    const already =
      current.status === "canceled" ||
      current.methodUpdate?.completedBy === source.id ||
      current.providerMethodRef === saved.ref;
    if (already && finalSave === null) return ok(undefined);
    const written = already
      ? await context.storage.saveSubscription(
          { ...current, methodUpdate: finalSave, version: current.version + 1 },
          [],
          [],
        )
      : await putOn(context, current, source, saved, finalSave, now);
    if (written.isOk()) return ok(undefined);
    if (written.error.code !== "conflict") return err(fromStorageError(written.error));
  }
  return err({ code: "internal_error", cause: new Error("method update: the subscription kept changing") });
}

async function putOn(
  context: PaymentContext,
  current: Subscription,
  source: MethodSource,
  saved: ProviderSavedMethod,
  finalSave: MethodUpdate | null,
  now: Date,
): Promise<Result<void, StorageError>> {
  const due = await dueNow(context, current, now);
  if (due.isErr()) return err(due.error);
  const update = finalSave ?? current.methodUpdate;
  const next: Subscription = {
    ...current,
    method: source.method,
    providerMethodRef: saved.ref,
    methodMask: saved.methodMask ?? source.methodMask ?? current.methodMask,
    methodUpdate: update === null ? null : { ...update, completedBy: source.id, completedAt: now },
    nextAttemptAt: due.value ? now : current.nextAttemptAt,
    version: current.version + 1,
  };
  const event = subscriptionEvent("subscription.method_updated", next, now, context.ids);
  return context.storage.saveSubscription(next, [event], []);
}

/** Whether a past-due subscription is to be charged now: no charge of it is open (pending) at the provider. */
async function dueNow(
  context: PaymentContext,
  subscription: Subscription,
  now: Date,
): Promise<Result<boolean, StorageError>> {
  if (subscription.status !== "past_due" || subscription.nextAttemptAt.getTime() <= now.getTime())
    return ok(false);
  const open = await (findOpenCharge(context.storage, subscription) ?? ok(null));
  return open.map((charge) => charge === null);
}
