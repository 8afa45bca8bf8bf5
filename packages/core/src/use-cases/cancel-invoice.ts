import { err, ok, type Result } from "neverthrow";
import type { KopekError } from "../domain/errors.js";
import { invoiceStatusAt, presentInvoice } from "../domain/presenters.js";
import { invoiceEvent } from "../events/domain-event.js";
import { type Execution, fromStorageError, type Outcome } from "./execution.js";

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
