import { randomUUID } from "node:crypto";
import type {
  CancelRequest,
  Money,
  ProviderError,
  ProviderPayment,
  ProviderRefund,
  RefundRequest,
} from "@kopek/core";
import { err, ok, type Result } from "neverthrow";
import { booksOf, type SandboxLedger } from "./ledger.js";
import { rememberOutcome } from "./provider-idempotency.js";
import { stateOf } from "./sandbox-payments.js";

const UNKNOWN_REFUND: ProviderError = { code: "failed", message: "the sandbox has no such refund" };
const LOST_ANSWER: ProviderError = {
  code: "unavailable",
  message: "the sandbox made the refund and simulates its answer lost",
};

/**
 * Refunds and cancels at the sandbox, as a real provider answers them: a refund of a succeeded
 * payment (a checkout payment or a stored-method charge) never beyond what remains of it, in its
 * currency; a key answers its first refund again; a pending checkout payment can be canceled.
 * Refunds of a `sandbox_refund_fail…` charge are canceled; of a `sandbox_refund_pending…` charge,
 * pending until `getRefund` asks about them.
 */
export function createSandboxRefunds(ledger: SandboxLedger) {
  const books = booksOf(ledger);

  /** What the payment took, when it succeeded; null otherwise. */
  function paid(providerPaymentId: string): Money | null {
    const payment = books.payments.get(providerPaymentId);
    if (payment !== undefined) return payment.status === "succeeded" ? payment.money : null;
    books.sync();
    return books.chargesById.get(providerPaymentId)?.money ?? null;
  }

  function refunded(providerPaymentId: string): bigint {
    let total = 0n;
    for (const refund of books.refunds.values())
      if (refund.providerPaymentId === providerPaymentId && refund.status !== "canceled")
        total += BigInt(refund.money.amount);
    return total;
  }

  function refund(request: RefundRequest): Result<ProviderRefund, ProviderError> {
    const { providerPaymentId, money } = request;
    const parameters = JSON.stringify([providerPaymentId, money.amount, money.currency]);
    let madeNow = false;
    const made = rememberOutcome(books.refundOutcomes, request.idempotencyKey, parameters, () => {
      const payment = paid(providerPaymentId);
      if (payment === null)
        return err({ code: "failed", message: "the sandbox refunds only a succeeded payment" });
      const remaining = BigInt(payment.amount) - refunded(providerPaymentId);
      if (payment.currency !== money.currency || BigInt(money.amount) > remaining)
        return err({ code: "failed", message: "the refund exceeds what remains of the payment" });
      const providerRefundId = `re_${randomUUID().replaceAll("-", "")}`;
      const behaviour = books.refundBehaviours.get(providerPaymentId);
      madeNow = behaviour === "lost_answer";
      books.refunds.set(providerRefundId, {
        providerRefundId,
        providerPaymentId,
        status: behaviour === "fail" ? "canceled" : behaviour === "pending" ? "pending" : "succeeded",
        money: { amount: money.amount, currency: money.currency },
        receipt: request.receipt ?? null,
      });
      return ok(providerRefundId);
    });
    if (made.isErr()) return err(made.error);
    // The refund is made; only the answer to the call that made it is lost (a repeated key is answered).
    if (madeNow) return err(LOST_ANSWER);
    return findRefund(made.value);
  }

  /** How a refund stands; `getRefund` of a pending one decides it (succeeded), as its ref promises. */
  function checkRefund(providerRefundId: string): Result<ProviderRefund, ProviderError> {
    const found = books.refunds.get(providerRefundId);
    if (found?.status === "pending") books.refunds.set(providerRefundId, { ...found, status: "succeeded" });
    return findRefund(providerRefundId);
  }

  function findRefund(providerRefundId: string): Result<ProviderRefund, ProviderError> {
    const found = books.refunds.get(providerRefundId);
    if (found === undefined) return err(UNKNOWN_REFUND);
    const { receipt: _kept, ...refund } = found;
    return ok(refund);
  }

  /** A pending checkout payment is canceled (the payer can no longer pay it); a decided one stays. */
  function cancel(request: CancelRequest): Result<ProviderPayment, ProviderError> {
    const payment = books.payments.get(request.providerPaymentId);
    if (payment === undefined)
      return err({ code: "failed", message: "the sandbox cancels only its checkout payments" });
    if (payment.status !== "pending") return ok(stateOf(payment));
    const canceled = { ...payment, status: "canceled" as const, failureCode: "expired" as const };
    books.payments.set(payment.providerPaymentId, canceled);
    return ok(stateOf(canceled));
  }

  return { refund, findRefund, checkRefund, cancel };
}
