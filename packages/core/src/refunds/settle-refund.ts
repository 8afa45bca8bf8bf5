import { err, type Result } from "neverthrow";
import type { Payment, Refund } from "../domain/model.js";
import { type DomainEvent, refundEvent } from "../events/domain-event.js";
import { type OnAmountMismatch, trustedRefundAnswer } from "../payments/amount-rule.js";
import { nextCheckAfter } from "../payments/payment-records.js";
import type { Clock } from "../ports/clock.js";
import type { IdGenerator } from "../ports/id-generator.js";
import type { PaymentProvider, ProviderError, ProviderRefund } from "../ports/payment-provider.js";
import type { Storage } from "../ports/storage.js";
import type { StorageError } from "../ports/storage-error.js";
import { refundReceiptFor } from "./refund-receipt.js";

/** What making a refund needs: storage, the time, ids, and the provider of the payment's project. */
export interface RefundContext {
  readonly storage: Storage;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly provider: PaymentProvider;
  /** Told about every provider word refused for its amount or currency (API.md 10.1). */
  readonly onAmountMismatch?: OnAmountMismatch | undefined;
}

const UNREAD: ProviderError = { code: "unavailable", message: "the refund's receipt could not be read" };

/** How many times a refund write that lost a race re-reads and tries again. */
const ATTEMPTS = 3;

/** The provider idempotency key of a refund: derived from its id, so every ask is the same refund. */
export function refundKey(refund: Refund): string {
  return `kopek:refund:${refund.id}`;
}

/**
 * Whether this ask is the first for the refund: `"first"` only right after this very call stored it
 * (`reserveRefund` answered `reserved`), so no earlier ask can have been made. Every other ask — a
 * re-execution that found it stored, reconciliation — may repeat one (`RefundRequest.mayHaveBeenSent`).
 */
export type RefundAskKind = "first" | "again";

/**
 * Asks the provider to make a pending refund (again: the key makes a repeated ask the same refund),
 * with its receipt where it needs one (refund-receipt.ts), and settles its answer — pending when its
 * money is not the refund's (`trustedRefundAnswer`). The refund as it stands after: still pending when the provider did not
 * answer or has not decided. A refund no longer pending is returned as it is.
 */
export async function submitRefund(
  context: RefundContext,
  refund: Refund,
  payment: Payment,
  ask: RefundAskKind,
): Promise<Refund> {
  if (refund.status !== "pending" || payment.providerPaymentId === null) return refund;
  const receipt = await refundReceiptFor(context.storage, refund, payment);
  // Not read: no ask now; reconciliation asks again.
  if (receipt.isErr()) return settleRefund(context, refund, err(UNREAD), "retry");
  const answer = await context.provider.refundPayment({
    refundId: refund.id,
    providerPaymentId: payment.providerPaymentId,
    money: refund.amount,
    reason: refund.reason,
    idempotencyKey: refundKey(refund),
    receipt: receipt.value,
    mayHaveBeenSent: ask === "again",
  });
  const trusted = trustedRefundAnswer(refund, payment, answer, context.onAmountMismatch);
  return settleRefund(context, refund, trusted, "refuse");
}

/**
 * Applies the provider's answer to a pending refund, version-checked with its events, in one atomic
 * step (storage moves the payment's `amountRefunded` with a success). `succeeded` → `refund.succeeded`;
 * `canceled`, or an error when `onFailed` is "refuse" (the provider refused to make it) →
 * `refund.canceled`, which frees its amount; `pending` notes the provider's id. No answer (`unavailable`,
 * or a failed look-up) changes nothing but the next check, backing off. Storage failures leave the
 * refund as it was read: reconciliation asks again.
 */
export async function settleRefund(
  context: Omit<RefundContext, "provider">,
  first: Refund,
  answer: Result<ProviderRefund, ProviderError>,
  onFailed: "refuse" | "retry",
): Promise<Refund> {
  let refund = first;
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    if (refund.status !== "pending") return refund;
    const now = context.clock.now();
    const next = nextVersion(refund, answer, onFailed, now);
    const events: DomainEvent[] =
      next.status === "pending"
        ? []
        : [
            refundEvent(
              next.status === "succeeded" ? "refund.succeeded" : "refund.canceled",
              next,
              now,
              context.ids,
            ),
          ];
    const saved = await context.storage.saveRefund(next, events);
    if (saved.isOk()) return next;
    if (!isConflict(saved.error)) return refund;
    const reread = await context.storage.findRefund(refund.projectId, refund.id);
    if (reread.isErr() || reread.value === null) return refund;
    refund = reread.value;
  }
  return refund;
}

function nextVersion(
  refund: Refund,
  answer: Result<ProviderRefund, ProviderError>,
  onFailed: "refuse" | "retry",
  now: Date,
): Refund {
  const base = { ...refund, version: refund.version + 1 };
  if (answer.isErr()) {
    if (answer.error.code !== "unavailable" && onFailed === "refuse")
      return { ...base, status: "canceled", canceledAt: now, nextCheckAt: null };
    return { ...base, nextCheckAt: nextCheckAfter(refund.createdAt, now) };
  }
  const { status, providerRefundId } = answer.value;
  const known = { ...base, providerRefundId: refund.providerRefundId ?? (providerRefundId || null) };
  switch (status) {
    case "succeeded":
      return { ...known, status, succeededAt: now, nextCheckAt: null };
    case "canceled":
      return { ...known, status, canceledAt: now, nextCheckAt: null };
    case "pending":
      return { ...known, nextCheckAt: nextCheckAfter(refund.createdAt, now) };
  }
}

const isConflict = (error: StorageError) => error.code === "conflict";
