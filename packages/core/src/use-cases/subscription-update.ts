import { err, ok, type Result } from "neverthrow";
import type { FieldIssue, KopekError } from "../domain/errors.js";
import type { Money, Receipt, Subscription } from "../domain/model.js";
import { formatAmount } from "../domain/money.js";
import { presentSubscription } from "../domain/presenters.js";
import { proratedDifference } from "../domain/proration.js";
import type { PaymentProvider } from "../ports/payment-provider.js";
import { periodDueAt } from "../renewals/renewal-transition.js";
import { checkReceiptTotal } from "../validation/receipt-rules.js";
import type { UpdateSubscriptionRequest } from "../validation/schemas.js";
import { receiptFor } from "./receipt-request.js";
import { renewalUnderWay, renewing, withCancelAtPeriodEnd } from "./subscription-changes.js";

/** A change planned (API.md 11.3): the subscription as it would be stored, and what to charge now. */
export interface PlannedUpdate {
  /** The very object given when nothing changes: nothing is written then. */
  readonly subscription: Subscription;
  /** The prorated difference to charge before the change is stored; null: none. */
  readonly prorate: Money | null;
}

/**
 * `current` as `input` would change it at `now`, or why it cannot. Price and period change only on an
 * active subscription whose renewal is not under way, in its own currency, and apply from the next
 * cycle: `nextChargeAt` stays, and a new period re-anchors the schedule there. A subscription with a
 * receipt keeps one whose items add up to its (new) amount.
 */
export function planUpdate(
  current: Subscription,
  input: UpdateSubscriptionRequest,
  now: Date,
  provider: PaymentProvider,
): Result<PlannedUpdate, KopekError> {
  if (current.status === "canceled")
    return err({ code: "invalid_state", detail: "the subscription is already canceled" });
  const priced = priceRefusal(current, input, now);
  if (priced !== null) return err(priced);
  const receipt = input.receipt === undefined ? ok(current.receipt) : receiptFor(provider, input.receipt);
  if (receipt.isErr()) return err(receipt.error);
  const amount = input.amount ?? current.amount;
  const issues = receiptIssues(current, input, amount, receipt.value);
  if (issues.length > 0) return err({ code: "validation_failed", errors: issues });

  const period = input.period ?? current.period;
  const periodChanged = period.unit !== current.period.unit || period.count !== current.period.count;
  let next: Subscription = {
    ...current,
    amount: { amount: amount.amount, currency: amount.currency },
    period: { unit: period.unit, count: period.count },
    description: input.description ?? current.description,
    metadata: input.metadata ?? current.metadata,
    receipt: receipt.value,
    // Period p is due at anchorAt + (p − anchorPeriod) periods: the period due at nextChargeAt stays due then.
    ...(periodChanged ? { anchorAt: current.nextChargeAt, anchorPeriod: current.nextCycle } : {}),
  };
  if (input.cancelAtPeriodEnd !== undefined) {
    const canceling = withCancelAtPeriodEnd(next, input.cancelAtPeriodEnd, now);
    if (canceling.isErr()) return err(canceling.error);
    next = canceling.value;
  }
  const unchanged =
    !periodChanged &&
    JSON.stringify(presentSubscription(next)) === JSON.stringify(presentSubscription(current));
  if (unchanged) return ok({ subscription: current, prorate: null });
  const prorate = input.proration === "charge_now" ? prorationOf(current, amount, now) : ok(null);
  if (prorate.isErr()) return err(prorate.error);
  return ok({ subscription: { ...next, version: current.version + 1 }, prorate: prorate.value });
}

/** Why `current` cannot take the new amount or period now; null when it can, or none is asked. */
function priceRefusal(current: Subscription, input: UpdateSubscriptionRequest, now: Date): KopekError | null {
  if (input.amount === undefined && input.period === undefined) return null;
  if (current.status !== "active")
    return {
      code: "invalid_state",
      detail: `only an active subscription changes its amount or period; this one is ${current.status}`,
    };
  if (renewalUnderWay(current, now))
    return renewing(current, "change the amount or period once the renewal has settled");
  if (input.amount !== undefined && input.amount.currency !== current.amount.currency)
    return {
      code: "validation_failed",
      errors: [
        {
          pointer: "#/amount/currency",
          code: "invalid_value",
          detail: `must be the subscription's currency, ${current.amount.currency}`,
        },
      ],
    };
  return null;
}

/** A receipt kept must add up to the amount charged with it (API.md 10.7, 11.3). */
function receiptIssues(
  current: Subscription,
  input: UpdateSubscriptionRequest,
  amount: Money,
  receipt: Receipt | null,
): FieldIssue[] {
  if (receipt === null || (input.amount === undefined && input.receipt === undefined)) return [];
  const issues: FieldIssue[] = [];
  checkReceiptTotal({ amount, receipt }, issues);
  if (input.receipt !== undefined || issues.length === 0) return issues;
  return [
    {
      pointer: "#/receipt",
      code: "receipt_total_mismatch",
      detail: `the subscription's receipt comes to ${formatAmount(current.amount)} ${amount.currency}: send a receipt whose items add up to the new amount`,
    },
  ];
}

/**
 * The prorated difference of `amount` over the current cycle (API.md 11.3); null when it comes to 0.
 * The cycle runs from the due time of the period paid last to `nextChargeAt`; one whose period was
 * changed this cycle has no such start on the new schedule, so it is refused.
 */
function prorationOf(current: Subscription, amount: Money, now: Date): Result<Money | null, KopekError> {
  const paidPeriod = current.nextCycle - 1;
  if (paidPeriod < current.anchorPeriod)
    return err({
      code: "invalid_state",
      detail:
        "the period was changed this cycle: raise the amount with proration none, or after nextChargeAt",
    });
  const difference = proratedDifference({
    oldAmount: current.amount.amount,
    newAmount: amount.amount,
    periodStart: periodDueAt(current, paidPeriod),
    periodEnd: current.nextChargeAt,
    now,
  });
  return ok(difference > 0n ? { amount: difference.toString(), currency: amount.currency } : null);
}
