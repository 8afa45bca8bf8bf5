import { err, ok, type Result } from "neverthrow";
import type { KopekError } from "../domain/errors.js";
import type { Payment, Subscription } from "../domain/model.js";
import { subscriptionEvent } from "../events/domain-event.js";
import type { ProviderSavedMethod } from "../ports/payment-provider.js";
import { findOpenCharge } from "../renewals/open-charge.js";
import { fromStorageError } from "../use-cases/execution.js";
import type { PaymentContext } from "./payment-page.js";

/** How many times a write that lost a race re-reads and tries again. */
const ATTEMPTS = 3;

/**
 * A verification payment succeeded (API.md 11.5): the method the provider saved with it goes on its
 * subscription — `method`, `methodMask` and the token change, the link is marked completed by it, and
 * `subscription.method_updated` is stored in the same version-checked write. A past-due subscription
 * with no charge open is made due now, so the renewal worker charges the overdue cycle on its next
 * tick from the new method (one with a charge open keeps it: that charge is settled first, never sent
 * twice). Nothing is put on when the provider saved nothing, when the subscription is gone or
 * canceled, or when this method is on already (a settle run again after a crash). The caller refunds
 * the payment after this, so a crash in between leaves it pending and it is settled again.
 */
export async function putMethodOn(
  context: PaymentContext,
  payment: Payment,
  saved: ProviderSavedMethod | null,
  now: Date,
): Promise<Result<void, KopekError>> {
  if (saved === null || payment.subscriptionId === null) return ok(undefined);
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const found = await context.storage.findSubscription(payment.projectId, payment.subscriptionId);
    if (found.isErr()) return err(fromStorageError(found.error));
    const current = found.value;
    if (current === null || current.status === "canceled") return ok(undefined);
    if (current.methodUpdate?.completedBy === payment.id || current.providerMethodRef === saved.ref)
      return ok(undefined);
    const due = await dueNow(context, current, now);
    if (due.isErr()) return err(due.error);
    const next: Subscription = {
      ...current,
      method: payment.method,
      providerMethodRef: saved.ref,
      methodMask: saved.methodMask ?? payment.methodMask ?? current.methodMask,
      methodUpdate:
        current.methodUpdate === null
          ? null
          : { ...current.methodUpdate, completedBy: payment.id, completedAt: now },
      nextAttemptAt: due.value ? now : current.nextAttemptAt,
      version: current.version + 1,
    };
    const event = subscriptionEvent("subscription.method_updated", next, now, context.ids);
    const written = await context.storage.saveSubscription(next, [event], []);
    if (written.isOk()) return ok(undefined);
    if (written.error.code !== "conflict") return err(fromStorageError(written.error));
  }
  return err({ code: "internal_error", cause: new Error("method update: the subscription kept changing") });
}

/** Whether a past-due subscription is to be charged now: no charge of it is open (pending) at the provider. */
async function dueNow(
  context: PaymentContext,
  subscription: Subscription,
  now: Date,
): Promise<Result<boolean, KopekError>> {
  if (subscription.status !== "past_due" || subscription.nextAttemptAt.getTime() <= now.getTime())
    return ok(false);
  const open = await (findOpenCharge(context.storage, subscription) ?? ok(null));
  if (open.isErr()) return err(fromStorageError(open.error));
  return ok(open.value === null);
}
