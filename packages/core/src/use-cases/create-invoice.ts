import { err, ok, type Result } from "neverthrow";
import type { KopekError } from "../domain/errors.js";
import { generatedInvoiceDescription } from "../domain/generated-descriptions.js";
import { DEFAULT_INVOICE_LIFETIME_MS } from "../domain/limits.js";
import type { Invoice, PaymentMethod, Receipt } from "../domain/model.js";
import { presentInvoice } from "../domain/presenters.js";
import { hostedPagePath } from "../payments/page-paths.js";
import { chargeableLater } from "../ports/payment-provider.js";
import type { CreateInvoiceRequest } from "../validation/schemas.js";
import { checkedCustomerId } from "./customer-check.js";
import { type Execution, fromProviderError, type Outcome, providerKey } from "./execution.js";
import { receiptFor } from "./receipt-request.js";

/** What an invoice request decides before any payment link exists. */
interface InvoicePlan {
  readonly allowedMethods: readonly PaymentMethod[];
  readonly pinnedMethod: PaymentMethod | null;
  readonly description: string;
  readonly expiresAt: Date;
  /** Kopek's hosted page for the invoice. */
  readonly hostedPageUrl: string;
  /** The 54-FZ receipt sent with its payment, or null (API.md 10.7). */
  readonly receipt: Receipt | null;
}

/**
 * Creates an invoice (API.md 5.4) with a provider whose payers pay on its own page: check the methods,
 * ask the provider for the payment link, then make the invoice.
 */
export async function createInvoice(
  execution: Execution,
  input: CreateInvoiceRequest,
): Promise<Result<Outcome, KopekError>> {
  const planned = planInvoice(execution, input);
  if (planned.isErr()) return err(planned.error);
  const plan = planned.value;
  const customer = await checkedCustomerId(execution, input.customerId);
  if (customer.isErr()) return err(customer.error);
  // Kopek's own page needs no link: only the customer's check kept this from being built (`buildInvoice`).
  if (execution.provider.capabilities.paymentPage === "kopek")
    return ok(invoiceOutcome(execution, input, plan, plan.hostedPageUrl, customer.value));
  const link = await execution.provider.createPaymentLink({
    invoiceId: execution.recordId,
    money: input.amount,
    description: plan.description,
    methods: plan.allowedMethods,
    expiresAt: plan.expiresAt,
    hostedPageUrl: plan.hostedPageUrl,
    idempotencyKey: providerKey(execution, "payment-link"),
  });
  if (link.isErr()) return err(fromProviderError(link.error));
  return ok(invoiceOutcome(execution, input, plan, link.value.url, customer.value));
}

/**
 * The same for a provider whose payers pay on Kopek's hosted page: nothing to ask the provider, so
 * the outcome follows from the request alone, synchronously (stored with `Storage.createOnce`). Null
 * for a provider with its own page: `createInvoice` runs instead.
 */
export function buildInvoice(
  execution: Execution,
  input: CreateInvoiceRequest,
): Result<Outcome, KopekError> | null {
  // A customer is checked in storage first: `createInvoice` runs instead.
  if (execution.provider.capabilities.paymentPage !== "kopek" || input.customerId !== undefined) return null;
  const planned = planInvoice(execution, input);
  if (planned.isErr()) return err(planned.error);
  return ok(invoiceOutcome(execution, input, planned.value, planned.value.hostedPageUrl, null));
}

function planInvoice(execution: Execution, input: CreateInvoiceRequest): Result<InvoicePlan, KopekError> {
  const { provider, now } = execution;
  const supported = provider.capabilities.methods;
  const requested = input.method !== undefined ? [input.method] : input.methods;
  // Without a request, the provider's own methods are allowed: nothing to check.
  const missing = requested === undefined ? [] : requested.filter((m) => !supported.includes(m));
  if (missing.length > 0) {
    return err({
      code: "method_unavailable",
      detail: `the project's payment provider does not support ${missing.join(", ")}`,
    });
  }
  const pinnedMethod = input.method ?? (input.methods?.length === 1 ? (input.methods[0] ?? null) : null);
  const methods = savableMethods(
    chargeableLater(provider.capabilities),
    input,
    pinnedMethod,
    requested ?? supported,
  );
  if (methods.isErr()) return err(methods.error);
  const receipt = receiptFor(provider, input.receipt);
  if (receipt.isErr()) return err(receipt.error);
  return ok({
    // A copy: the invoice is stored as made, and must not share the provider's own list.
    allowedMethods: [...methods.value],
    pinnedMethod,
    description: input.description ?? generatedInvoiceDescription(input.amount),
    expiresAt:
      input.expiresAt !== undefined
        ? new Date(input.expiresAt)
        : new Date(now.getTime() + DEFAULT_INVOICE_LIFETIME_MS),
    hostedPageUrl: `${execution.publicUrl}${hostedPagePath(execution.project.id, execution.recordId)}`,
    receipt: receipt.value,
  });
}

/**
 * The methods a payer may use (API.md 10.5): all of `methods` unless the method is to be saved; then
 * only those saved in a form the project can charge later. A pinned method outside them, or none left:
 * `method_unavailable`.
 */
function savableMethods(
  savable: readonly PaymentMethod[],
  input: CreateInvoiceRequest,
  pinnedMethod: PaymentMethod | null,
  methods: readonly PaymentMethod[],
): Result<readonly PaymentMethod[], KopekError> {
  if (input.savePaymentMethod !== true) return ok(methods);
  if (pinnedMethod !== null && !savable.includes(pinnedMethod))
    return err({
      code: "method_unavailable",
      detail: `the project's payment provider cannot save a ${pinnedMethod} method for later charges`,
    });
  const kept = methods.filter((m) => savable.includes(m));
  if (kept.length === 0)
    return err({
      code: "method_unavailable",
      detail: `the project's payment provider cannot save any of ${methods.join(", ")}`,
    });
  return ok(kept);
}

function invoiceOutcome(
  execution: Execution,
  input: CreateInvoiceRequest,
  plan: InvoicePlan,
  paymentUrl: string,
  customerId: string | null,
): Outcome {
  const { recordId: id, project, now } = execution;
  const invoice: Invoice = {
    id,
    projectId: project.id,
    status: "created",
    amount: { amount: input.amount.amount, currency: input.amount.currency },
    description: plan.description,
    comment: input.comment ?? null,
    customer: input.customer
      ? {
          email: input.customer.email,
          phone: input.customer.phone ?? null,
          externalId: input.customer.externalId ?? null,
        }
      : null,
    metadata: input.metadata ?? {},
    paymentUrl,
    returnUrl: input.returnUrl ?? null,
    allowedMethods: plan.allowedMethods,
    method: null,
    pinnedMethod: plan.pinnedMethod,
    createdAt: now,
    expiresAt: plan.expiresAt,
    paidAt: null,
    canceledAt: null,
    savePaymentMethod: input.savePaymentMethod === true,
    savedMethod: null,
    receipt: plan.receipt,
    attempts: 0,
    customerId,
    version: 1,
  };
  return {
    status: 201,
    resource: { kind: "invoice", invoice },
    location: `/v1/invoices/${id}`,
    body: presentInvoice(invoice, now),
  };
}
