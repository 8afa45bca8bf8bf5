import type { ResultAsync } from "neverthrow";
import type { Payment, Subscription } from "../domain/model.js";
import type { Storage } from "../ports/storage.js";
import type { StorageError } from "../ports/storage-error.js";

/**
 * A subscription's cycle charge still pending (at most one: no charge is made while one is), or null.
 * A renewal that left its charge open (pending, or no answer) moved the next attempt off the schedule
 * (applyChargeResult); one on schedule has none, and costs no lookup. A pending proration or
 * verification payment is its own money, never a cycle's charge (API.md 11.3, 11.5).
 */
export function findOpenCharge(
  storage: Storage,
  subscription: Subscription,
): ResultAsync<Payment | null, StorageError> | null {
  if (subscription.nextAttemptAt.getTime() === subscription.nextChargeAt.getTime()) return null;
  return storage
    .listPayments(subscription.projectId, {
      limit: 1,
      before: null,
      invoiceId: null,
      subscriptionId: subscription.id,
      status: "pending",
      kind: "cycle",
    })
    .map((listed) => listed[0] ?? null);
}
