import { err, ok, type Result } from "neverthrow";
import type { KopekError } from "../domain/errors.js";
import { generatedSubscriptionDescription } from "../domain/generated-descriptions.js";
import type { Invoice, SavedMethod } from "../domain/model.js";
import { newSubscription } from "../domain/new-subscription.js";
import { invoiceStatusAt, presentSubscription } from "../domain/presenters.js";
import { subscriptionEvent } from "../events/domain-event.js";
import type { CreateSubscriptionRequest } from "../validation/schemas.js";
import { type Execution, fromProviderError, fromStorageError, type Outcome } from "./execution.js";
import { maskOf } from "./method-mask.js";
import { receiptFor } from "./receipt-request.js";

/** A create-subscription body of the invoice shape (API.md 10.5). */
export type InvoiceSubscriptionRequest = Extract<CreateSubscriptionRequest, { readonly invoiceId: string }>;

/**
 * Creates a subscription from a paid invoice whose method the provider saved, its payment not refunded
 * in full (API.md 10.5). The invoice's payment is cycle 1: nothing is charged, and the subscription is
 * anchored on `paidAt`. One invoice backs at most one subscription: storage refuses a second as a
 * `duplicate`, answered 409 `invoice_already_used` (also when two requests race).
 */
export async function createSubscriptionFromInvoice(
  execution: Execution,
  input: InvoiceSubscriptionRequest,
): Promise<Result<Outcome, KopekError>> {
  const { storage, project, provider, now } = execution;
  const found = await storage.findInvoice(project.id, input.invoiceId);
  if (found.isErr()) return err(fromStorageError(found.error));
  const usable = usableInvoice(found.value, input, now);
  if (usable.isErr()) return err(usable.error);
  const { invoice, saved, paidAt } = usable.value;
  const refunded = await refundedInFull(execution, invoice);
  if (refunded.isErr()) return err(refunded.error);
  if (refunded.value)
    return err({
      code: "invoice_not_usable",
      detail: "the invoice's payment was refunded in full: it paid for no cycle",
    });
  // The subscription's receipt goes with each renewal; cycle 1 was the invoice's own payment.
  const receipt = receiptFor(provider, input.receipt);
  if (receipt.isErr()) return err(receipt.error);
  if (!provider.capabilities.storedMethodCharge.includes(saved.method)) {
    return err({
      code: "method_unavailable",
      detail: `the project's payment provider cannot charge a stored ${saved.method} method`,
    });
  }
  let methodMask = saved.methodMask;
  if (methodMask === null) {
    // The provider did not tell the mask with the payment: it describes the saved method instead.
    const described = await provider.describeStoredMethod({
      ref: saved.providerMethodRef,
      method: saved.method,
    });
    if (described.isErr()) return err(fromProviderError(described.error));
    methodMask = maskOf(described.value);
  }

  const subscription = newSubscription({
    id: execution.recordId,
    projectId: project.id,
    amount: input.amount,
    period: input.period,
    method: saved.method,
    providerMethodRef: saved.providerMethodRef,
    methodMask,
    description: input.description ?? generatedSubscriptionDescription(input.amount, input.period),
    metadata: input.metadata ?? {},
    receipt: receipt.value,
    customerId: invoice.customerId,
    invoiceId: invoice.id,
    createdAt: now,
    first: { kind: "charged", at: paidAt },
  });
  return ok({
    status: 201,
    resource: { kind: "subscription", subscription },
    location: `/v1/subscriptions/${subscription.id}`,
    body: presentSubscription(subscription),
    events: [subscriptionEvent("subscription.created", subscription, now, execution.ids)],
    onDuplicate: {
      code: "invoice_already_used",
      detail: `invoice ${invoice.id} already backs a subscription`,
    },
  });
}

/**
 * Whether the money that paid the invoice has all gone back to the payer (succeeded refunds adding up
 * to its payment's amount). A partial refund leaves the invoice usable: the method is still saved and
 * the payer still paid for the first cycle, less what the merchant chose to give back.
 */
async function refundedInFull(execution: Execution, invoice: Invoice): Promise<Result<boolean, KopekError>> {
  const listed = await execution.storage.listPayments(invoice.projectId, {
    limit: 100,
    before: null,
    invoiceId: invoice.id,
    subscriptionId: null,
    status: "succeeded",
  });
  if (listed.isErr()) return err(fromStorageError(listed.error));
  const payments = listed.value;
  return ok(
    payments.length > 0 && payments.every((p) => BigInt(p.amountRefunded) >= BigInt(p.amount.amount)),
  );
}

interface UsableInvoice {
  readonly invoice: Invoice;
  readonly saved: SavedMethod;
  readonly paidAt: Date;
}

/** The invoice when a subscription can be made from it; else `invoice_not_usable`, saying why. */
function usableInvoice(
  invoice: Invoice | null,
  input: InvoiceSubscriptionRequest,
  now: Date,
): Result<UsableInvoice, KopekError> {
  const refuse = (detail: string) => err({ code: "invoice_not_usable" as const, detail });
  if (invoice === null) return refuse(`there is no invoice ${input.invoiceId} in this project`);
  const status = invoiceStatusAt(invoice, now);
  if (status !== "paid" || invoice.paidAt === null)
    return refuse(`the invoice is ${status}, not paid: only a paid invoice's payment can be the first cycle`);
  if (invoice.savedMethod === null)
    return refuse(
      "the invoice has no saved method: create the invoice with savePaymentMethod: true, and have it paid with a method the provider saves",
    );
  const paid = invoice.amount;
  if (paid.amount !== input.amount.amount || paid.currency !== input.amount.currency)
    return refuse(
      `the invoice's amount (${paid.amount} ${paid.currency}) differs from the subscription's (${input.amount.amount} ${input.amount.currency})`,
    );
  return ok({ invoice, saved: invoice.savedMethod, paidAt: invoice.paidAt });
}
