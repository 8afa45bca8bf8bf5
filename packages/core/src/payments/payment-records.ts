import type {
  Money,
  Payment,
  PaymentFailureCode,
  PaymentKind,
  PaymentMethod,
  Subscription,
} from "../domain/model.js";
import type { ProviderPayment } from "../ports/payment-provider.js";

/** What a payment is for and how it is made, as known when it is recorded. */
export interface PaymentSubject {
  readonly projectId: string;
  readonly amount: Money;
  readonly method: PaymentMethod;
  readonly methodMask: string | null;
  /** The provider kind of the project (`ProviderSettings.kind`). */
  readonly provider: string;
  readonly providerPaymentId: string | null;
  /** The customer of the invoice or subscription it pays (API.md 11.1), or null. */
  readonly customerId: string | null;
  /**
   * An invoice's payment (its attempt's number), or a subscription's charge of one cycle (`kind`
   * `cycle`, the default) or within one (`proration`; `verification`, a method-update link's attempt,
   * API.md 11.5, with its number).
   */
  readonly for:
    | { readonly invoiceId: string; readonly attempt: number }
    | {
        readonly subscriptionId: string;
        readonly cycle: number;
        readonly kind?: Exclude<PaymentKind, "invoice">;
        readonly attempt?: number;
      };
}

/** Where the payment stands when it is recorded: not answered yet, the money moved, or it did not (and why). */
export type PaymentAnswer =
  | { readonly status: "pending" }
  | { readonly status: "succeeded" }
  | { readonly status: "canceled"; readonly failureCode: PaymentFailureCode };

/** A new payment (version 1), recorded at `at`. */
export function newPayment(subject: PaymentSubject, answer: PaymentAnswer, id: string, at: Date): Payment {
  const target = subject.for;
  return {
    id,
    projectId: subject.projectId,
    status: answer.status,
    amount: { amount: subject.amount.amount, currency: subject.amount.currency },
    amountRefunded: "0",
    method: subject.method,
    methodMask: subject.methodMask,
    invoiceId: "invoiceId" in target ? target.invoiceId : null,
    subscriptionId: "subscriptionId" in target ? target.subscriptionId : null,
    cycle: "subscriptionId" in target ? target.cycle : null,
    kind: "subscriptionId" in target ? (target.kind ?? "cycle") : "invoice",
    provider: subject.provider,
    providerPaymentId: subject.providerPaymentId,
    failureCode: answer.status === "canceled" ? answer.failureCode : null,
    createdAt: at,
    succeededAt: answer.status === "succeeded" ? at : null,
    canceledAt: answer.status === "canceled" ? at : null,
    nextCheckAt: answer.status === "pending" ? nextCheckAfter(at, at) : null,
    attempt: target.attempt ?? null,
    customerId: subject.customerId,
    version: 1,
  };
}

/**
 * A recorded attempt as the provider answered it: `answered` (made by `newPayment` with the recorded
 * id) over the Payment committed before the call, keeping its time, one version on.
 */
export function answeredOver(recorded: Payment, answered: Payment): Payment {
  return { ...answered, createdAt: recorded.createdAt, version: recorded.version + 1 };
}

/** The provider's word that a call made no payment (refused, or never received): nothing moved. */
export const NO_PAYMENT_MADE: ProviderPayment = {
  providerPaymentId: "",
  status: "canceled",
  failureCode: "provider_error",
  methodMask: null,
  savedMethod: null,
  money: null,
};

/** A pending payment is first asked about a minute after it was made (API.md 10.3.3). */
export const FIRST_CHECK_AFTER_MS = 60_000;
/** The longest wait between two checks of a payment that stays pending. */
export const MAX_CHECK_INTERVAL_MS = 60 * 60_000;

/**
 * When a payment made at `createdAt`, still pending at `now`, is asked about again: back-off with
 * its age (a quarter of it), from a minute up to an hour.
 */
export function nextCheckAfter(createdAt: Date, now: Date): Date {
  const age = now.getTime() - createdAt.getTime();
  const wait = Math.min(Math.max(Math.floor(age / 4), FIRST_CHECK_AFTER_MS), MAX_CHECK_INTERVAL_MS);
  return new Date(now.getTime() + wait);
}

/**
 * What a charge of a subscription is for, from its stored method: the one place a subscription's
 * Payment takes its amount, method, mask and customer. `cycle` as Payments count (1 = first).
 */
export function subscriptionPaymentSubject(
  subscription: Subscription,
  charge: {
    readonly provider: string;
    readonly providerPaymentId: string | null;
    readonly cycle: number;
    readonly kind?: Exclude<PaymentKind, "invoice">;
    readonly amount?: Money;
    readonly method?: PaymentMethod;
    readonly attempt?: number;
  },
): PaymentSubject {
  return {
    projectId: subscription.projectId,
    amount: charge.amount ?? subscription.amount,
    method: charge.method ?? subscription.method,
    methodMask: charge.method === undefined ? subscription.methodMask : null,
    provider: charge.provider,
    providerPaymentId: charge.providerPaymentId,
    customerId: subscription.customerId,
    for: {
      subscriptionId: subscription.id,
      cycle: charge.cycle,
      ...(charge.kind === undefined ? {} : { kind: charge.kind }),
      ...(charge.attempt === undefined ? {} : { attempt: charge.attempt }),
    },
  };
}
