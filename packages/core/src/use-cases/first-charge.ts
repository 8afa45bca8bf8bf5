import { err, ok, type Result } from "neverthrow";
import type { KopekError } from "../domain/errors.js";
import type { Payment } from "../domain/model.js";
import { newPayment, type PaymentSubject } from "../payments/payment-records.js";
import { type Execution, fromStorageError } from "./execution.js";

/**
 * The provider key of a subscription's first charge: derived from the subscription's id (its create's
 * idempotency record), so a re-execution sends the same key, and reconciliation can ask the provider
 * about it from the Payment alone (`findPaymentByKey`).
 */
export function firstChargeKey(subscriptionId: string): string {
  return `kopek:${subscriptionId}:first-charge`;
}

/**
 * The pending Payment a subscription's first charge is made for, committed before the provider is
 * called (no charge without a record): when any later write fails, reconciliation finds it and learns
 * from the provider what the charge did (API.md 10.5). A re-execution of the same create (a crashed
 * process's, taken over) finds the one it recorded and charges for it again with the same key; one
 * reconciliation already settled is not charged again — the request is answered as it ended.
 */
export async function recordFirstCharge(
  execution: Execution,
  subject: PaymentSubject,
): Promise<Result<Payment, KopekError>> {
  const { storage, project, recordId } = execution;
  const listed = await storage.listPayments(project.id, {
    limit: 1,
    before: null,
    invoiceId: null,
    subscriptionId: recordId,
    status: null,
    kind: "cycle",
  });
  if (listed.isErr()) return err(fromStorageError(listed.error));
  const earlier = listed.value[0];
  if (earlier !== undefined) return earlier.status === "pending" ? ok(earlier) : err(settledAlready(earlier));
  const payment = newPayment(subject, { status: "pending" }, execution.ids.newId(), execution.now);
  const saved = await storage.savePayment(payment, []);
  return saved.isErr() ? err(fromStorageError(saved.error)) : ok(payment);
}

/** The answer to a re-executed create whose first charge was settled while the create was not complete. */
function settledAlready(payment: Payment): KopekError {
  if (payment.status === "canceled" && payment.failureCode === "payment_declined")
    return { code: "payment_declined", detail: "the provider declined the first charge" };
  return {
    code: "invalid_state",
    detail:
      `this request did not complete and its first charge (payment ${payment.id}) was settled ` +
      "without it (refunded if it moved money); send the request again with a new Idempotency-Key",
  };
}
