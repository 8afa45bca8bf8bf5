import { err, ok, type Result } from "neverthrow";
import type { Invoice, PaymentMethod } from "../domain.js";
import type { KopekError } from "../errors.js";
import { formatMoney } from "../money.js";
import { presentInvoice } from "../presenters.js";
import type { CreateInvoiceRequest } from "../validation/schemas.js";
import { type Execution, fromProviderError, type Outcome, providerKey } from "./execution.js";

const DEFAULT_INVOICE_LIFETIME_MS = 24 * 60 * 60 * 1000;

/** Creates an invoice (API.md 5.4): check the methods against the provider, then get its payment link. */
export async function createInvoice(
  execution: Execution,
  input: CreateInvoiceRequest,
): Promise<Result<Outcome, KopekError>> {
  const { provider, project, now } = execution;
  const requested = input.method !== undefined ? [input.method] : input.methods;
  const allowedMethods: readonly PaymentMethod[] = requested ?? provider.capabilities.methods;
  // Without a request, the provider's own methods are allowed: nothing to check.
  const missing =
    requested === undefined ? [] : requested.filter((m) => !provider.capabilities.methods.includes(m));
  if (missing.length > 0) {
    return err({
      code: "method_unavailable",
      detail: `the project's payment provider does not support ${missing.join(", ")}`,
    });
  }
  const pinnedMethod = input.method ?? (input.methods?.length === 1 ? (input.methods[0] ?? null) : null);
  const description = input.description ?? `Invoice for ${formatMoney(input.amount)}`;
  const expiresAt =
    input.expiresAt !== undefined
      ? new Date(input.expiresAt)
      : new Date(now.getTime() + DEFAULT_INVOICE_LIFETIME_MS);
  const id = execution.recordId;
  const link = await provider.createPaymentLink({
    invoiceId: id,
    money: input.amount,
    description,
    methods: allowedMethods,
    expiresAt,
    hostedPageUrl: `${execution.publicUrl}/pay/${id}`,
    idempotencyKey: providerKey(execution, "payment-link"),
  });
  if (link.isErr()) return err(fromProviderError(link.error));

  const invoice: Invoice = {
    id,
    projectId: project.id,
    status: "created",
    amount: { amount: input.amount.amount, currency: input.amount.currency },
    description,
    comment: input.comment ?? null,
    customer: input.customer
      ? {
          email: input.customer.email,
          phone: input.customer.phone ?? null,
          externalId: input.customer.externalId ?? null,
        }
      : null,
    metadata: input.metadata ?? {},
    paymentUrl: link.value.url,
    returnUrl: input.returnUrl ?? null,
    allowedMethods,
    method: null,
    pinnedMethod,
    createdAt: now,
    expiresAt,
    paidAt: null,
    canceledAt: null,
    version: 1,
  };
  return ok({
    status: 201,
    resource: { kind: "invoice", invoice },
    location: `/v1/invoices/${id}`,
    body: presentInvoice(invoice, now),
  });
}
