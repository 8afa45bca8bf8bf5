import { err, ok, type Result } from "neverthrow";
import type { KopekError } from "../domain/errors.js";
import { presentRefund } from "../domain/presenters.js";
import { refundPayment } from "../refunds/refund-payment.js";
import type { CreateRefundRequest } from "../validation/schemas.js";
import { type Execution, fromStorageError, type Outcome } from "./execution.js";

/**
 * POST /v1/payments/{id}/refunds (API.md 10.6): refunds (part of) a succeeded payment of the caller's
 * project. The refund's id is the idempotency record's, so a re-execution carries on the same refund.
 * Answered 201 with the refund as it stands: `succeeded`, `pending` (the provider has not decided, or
 * did not answer: reconciliation asks again) or `canceled` (the provider refused it).
 */
export async function createRefund(
  execution: Execution,
  input: CreateRefundRequest,
  paymentId: string,
): Promise<Result<Outcome, KopekError>> {
  const found = await execution.storage.findPayment(execution.project.id, paymentId);
  if (found.isErr()) return err(fromStorageError(found.error));
  if (found.value === null) return err({ code: "not_found" });
  const refunded = await refundPayment(
    {
      storage: execution.storage,
      clock: { now: () => execution.now },
      ids: execution.ids,
      provider: execution.provider,
      onAmountMismatch: execution.onAmountMismatch,
    },
    {
      refundId: execution.recordId,
      payment: found.value,
      amount: input.amount ?? null,
      reason: input.reason ?? null,
    },
  );
  if (refunded.isErr()) return err(refunded.error);
  const refund = refunded.value;
  // The refund is stored already (its reservation must precede the provider call): the key stores only the answer.
  return ok({
    status: 201,
    resource: null,
    location: `/v1/refunds/${refund.id}`,
    body: presentRefund(refund),
  });
}
