import { err, ok, type Result } from "neverthrow";
import type { KopekError } from "../domain/errors.js";
import type { Money, Payment, Refund } from "../domain/model.js";
import type { DomainEvent } from "../events/domain-event.js";
import { nextCheckAfter } from "../payments/payment-records.js";
import { fromStorageError } from "../use-cases/execution.js";
import { type RefundContext, submitRefund } from "./settle-refund.js";

export type { RefundContext };

/** A refund asked for, by the API, an operator (CLI) or Kopek itself (a second success, API.md 10.3.5). */
export interface RefundAsk {
  /** The new refund's id; the same across re-executions of one request (its idempotency record). */
  readonly refundId: string;
  readonly payment: Payment;
  /** Null: what remains refundable. */
  readonly amount: Money | null;
  readonly reason: string | null;
}

/** How often an ask for "what remains" is retried when a concurrent refund took part of it meanwhile. */
const REMAINDER_ATTEMPTS = 5;

/**
 * Refunds (part of) a succeeded payment (API.md 10.6): the refund is stored `pending` with its amount
 * reserved against the payment (storage refuses it atomically when it exceeds what remains), then the
 * provider is asked with a key derived from the refund's id, and its answer settled. No answer leaves
 * the refund pending for reconciliation; a refusal cancels it, which frees its amount. A refund with
 * this id already stored (a re-execution) is carried on, never made twice.
 */
export async function refundPayment(
  context: RefundContext,
  ask: RefundAsk,
): Promise<Result<Refund, KopekError>> {
  const { payment } = ask;
  if (payment.status !== "succeeded")
    return err({
      code: "invalid_state",
      detail: `the payment is ${payment.status}; only a succeeded one is refunded`,
    });
  if (ask.amount !== null && ask.amount.currency !== payment.amount.currency)
    return err({
      code: "refund_exceeds_payment",
      detail: `the payment is in ${payment.amount.currency}; a refund of it must be too`,
    });
  // Without an amount, the most it can be; storage answers what really remains when that is less.
  let amount =
    ask.amount?.amount ?? (BigInt(payment.amount.amount) - BigInt(payment.amountRefunded)).toString();
  for (let attempt = 0; attempt < REMAINDER_ATTEMPTS; attempt++) {
    if (BigInt(amount) <= 0n) break;
    const refund = newRefund(context, ask, amount);
    const reserved = await context.storage.reserveRefund(refund, null, []);
    if (reserved.isErr()) return err(fromStorageError(reserved.error));
    const outcome = reserved.value;
    if (outcome.kind === "reserved") return ok(await submitRefund(context, refund, payment, "first"));
    if (outcome.kind === "exists") return ok(await submitRefund(context, outcome.refund, payment, "again"));
    if (ask.amount !== null || outcome.refundable === amount)
      return err(exceeds(payment, outcome.refundable));
    amount = outcome.refundable;
  }
  return err(exceeds(payment, "0"));
}

/**
 * A payment settled `succeeded` that Kopek must not keep (API.md 10.3.5) is written together with its
 * full refund, reserved in the same atomic step, then refunded through the same path as any refund;
 * `conflict` when the payment changed meanwhile. A refund that gets no answer is retried by
 * reconciliation, so the money goes back even when the provider was down.
 */
export async function refundWhileSettling(
  context: RefundContext,
  payment: Payment,
  events: readonly DomainEvent[],
  reason: string,
): Promise<Result<Refund | "conflict", KopekError>> {
  const ask = { refundId: context.ids.newId(), payment, amount: payment.amount, reason };
  const refund = newRefund(context, ask, payment.amount.amount);
  const reserved = await context.storage.reserveRefund(refund, payment, events);
  if (reserved.isErr())
    return reserved.error.code === "conflict" ? ok("conflict") : err(fromStorageError(reserved.error));
  if (reserved.value.kind === "exceeds") return err(exceeds(payment, reserved.value.refundable));
  if (reserved.value.kind === "exists")
    return ok(await submitRefund(context, reserved.value.refund, payment, "again"));
  return ok(await submitRefund(context, refund, payment, "first"));
}

function newRefund(context: RefundContext, ask: RefundAsk, amount: string): Refund {
  const now = context.clock.now();
  return {
    id: ask.refundId,
    projectId: ask.payment.projectId,
    paymentId: ask.payment.id,
    status: "pending",
    amount: { amount, currency: ask.payment.amount.currency },
    reason: ask.reason,
    providerRefundId: null,
    createdAt: now,
    succeededAt: null,
    canceledAt: null,
    nextCheckAt: nextCheckAfter(now, now),
    version: 1,
  };
}

function exceeds(payment: Payment, refundable: string): KopekError {
  const { currency } = payment.amount;
  return {
    code: "refund_exceeds_payment",
    detail:
      refundable === "0"
        ? "nothing remains refundable of this payment"
        : `at most ${refundable} ${currency} (minor units) remains refundable of this payment`,
  };
}
