import { addPeriods } from "./billing-period.js";
import type { Metadata, Money, PaymentMethod, Period, Receipt, Subscription } from "./model.js";

/** What a new subscription is made of: the request's terms, the method, and how its first cycle stands. */
export interface SubscriptionStart {
  readonly id: string;
  readonly projectId: string;
  readonly amount: Money;
  readonly period: Period;
  readonly method: PaymentMethod;
  readonly providerMethodRef: string;
  readonly methodMask: string;
  readonly description: string;
  readonly metadata: Metadata;
  readonly receipt: Receipt | null;
  readonly customerId: string | null;
  /** The paid invoice whose payment is its first cycle (API.md 10.5), or null. */
  readonly invoiceId: string | null;
  readonly createdAt: Date;
  /**
   * Its first cycle: `charged` at `at` (active; from an invoice, the payment's moment), `pending` at
   * the provider since `at` (incomplete, 10.5), or a `trial` whose first charge is due at `trialEnd`
   * and whose worker takes it up first at `noticeAt` (11.6).
   */
  readonly first:
    | { readonly kind: "charged" | "pending"; readonly at: Date }
    | { readonly kind: "trial"; readonly trialEnd: Date; readonly noticeAt: Date };
}

/**
 * A new subscription (version 1), the one place its schedule starts: period 0 is due at the anchor
 * (the first charge's moment, or `trialEnd`), so a charged or pending first cycle is due again one
 * period later, and a trial's first charge at `trialEnd`.
 */
export function newSubscription(start: SubscriptionStart): Subscription {
  const { first } = start;
  const terms = {
    id: start.id,
    projectId: start.projectId,
    amount: { amount: start.amount.amount, currency: start.amount.currency },
    period: { unit: start.period.unit, count: start.period.count },
    method: start.method,
    providerMethodRef: start.providerMethodRef,
    methodMask: start.methodMask,
    description: start.description,
    metadata: start.metadata,
    receipt: start.receipt,
    customerId: start.customerId,
    invoiceId: start.invoiceId,
    createdAt: start.createdAt,
    canceledAt: null,
    cancelReason: null,
    cancelAt: null,
    pauseAt: null,
    methodUpdate: null,
    anchorPeriod: 0,
    declines: 0,
    firstDeclinedAt: null,
    version: 1,
  };
  if (first.kind === "trial")
    return {
      ...terms,
      status: "trialing",
      startedAt: start.createdAt,
      trialEnd: first.trialEnd,
      anchorAt: first.trialEnd,
      nextChargeAt: first.trialEnd,
      nextAttemptAt: first.noticeAt,
      lastChargedAt: null,
      cyclesStarted: 0,
      nextCycle: 0,
    };
  const charged = first.kind === "charged";
  const nextChargeAt = addPeriods(first.at, start.period, 1);
  return {
    ...terms,
    status: charged ? "active" : "incomplete",
    startedAt: first.at,
    trialEnd: null,
    anchorAt: first.at,
    nextChargeAt,
    nextAttemptAt: nextChargeAt,
    lastChargedAt: charged ? first.at : null,
    cyclesStarted: charged ? 1 : 0,
    nextCycle: 1,
  };
}
