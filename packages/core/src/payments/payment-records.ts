import type { Money, Payment, PaymentFailureCode, PaymentMethod } from "../domain/model.js";

/** What a payment is for and how it is made, as known when it is recorded. */
export interface PaymentSubject {
  readonly projectId: string;
  readonly amount: Money;
  readonly method: PaymentMethod;
  readonly methodMask: string | null;
  /** The provider kind of the project (`ProviderSettings.kind`). */
  readonly provider: string;
  readonly providerPaymentId: string | null;
  /** An invoice's payment, or a subscription's charge of one cycle. */
  readonly for: { readonly invoiceId: string } | { readonly subscriptionId: string; readonly cycle: number };
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
    provider: subject.provider,
    providerPaymentId: subject.providerPaymentId,
    failureCode: answer.status === "canceled" ? answer.failureCode : null,
    createdAt: at,
    succeededAt: answer.status === "succeeded" ? at : null,
    canceledAt: answer.status === "canceled" ? at : null,
    version: 1,
  };
}
