import { err, ok, type Result } from "neverthrow";
import type { KopekError } from "../domain/errors.js";
import { invoiceStatusAt, presentInvoice, presentSubscription } from "../domain/presenters.js";
import { invoiceEvent, subscriptionEvent } from "../events/domain-event.js";
import { type Execution, fromStorageError, type Outcome } from "./execution.js";

/**
 * POST /v1/subscriptions/{id}/cancel: an active or past-due subscription ends now; no further charge
 * is attempted. Canceling a canceled one is `invalid_state` (the same key replays the first answer).
 */
export async function cancelSubscription(
  execution: Execution,
  id: string,
): Promise<Result<Outcome, KopekError>> {
  const found = await execution.storage.findSubscription(execution.project.id, id);
  if (found.isErr()) return err(fromStorageError(found.error));
  const current = found.value;
  if (current === null) return err({ code: "not_found" });
  if (current.status === "canceled")
    return err({ code: "invalid_state", detail: "the subscription is already canceled" });
  const subscription = {
    ...current,
    status: "canceled" as const,
    canceledAt: execution.now,
    cancelReason: "requested" as const,
    version: current.version + 1,
  };
  return ok({
    status: 200,
    resource: { kind: "subscription", subscription },
    body: presentSubscription(subscription),
    events: [subscriptionEvent("subscription.canceled", subscription, execution.now, execution.ids)],
  });
}

/** POST /v1/invoices/{id}/cancel: only an invoice that can still be paid can be canceled. */
export async function cancelInvoice(execution: Execution, id: string): Promise<Result<Outcome, KopekError>> {
  const found = await execution.storage.findInvoice(execution.project.id, id);
  if (found.isErr()) return err(fromStorageError(found.error));
  const current = found.value;
  if (current === null) return err({ code: "not_found" });
  const status = invoiceStatusAt(current, execution.now);
  if (status !== "created")
    return err({ code: "invalid_state", detail: `the invoice is ${status} and cannot be canceled` });
  const invoice = {
    ...current,
    status: "canceled" as const,
    canceledAt: execution.now,
    version: current.version + 1,
  };
  return ok({
    status: 200,
    resource: { kind: "invoice", invoice },
    body: presentInvoice(invoice, execution.now),
    events: [invoiceEvent("invoice.canceled", invoice, execution.now, execution.ids)],
  });
}
