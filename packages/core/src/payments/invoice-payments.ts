import { err, ok, type Result } from "neverthrow";
import type { KopekError } from "../api/errors.js";
import type { Invoice, Payment, PaymentMethod, Project } from "../domain/model.js";
import { invoiceStatusAt } from "../domain/presenters.js";
import type { ProviderPayment } from "../ports/payment-provider.js";
import { fromProviderError, fromStorageError } from "../use-cases/execution.js";
import { loadInvoice } from "./payment-page.js";
import { newPayment, type PaymentSubject } from "./payment-records.js";
import { providerNotificationUrl } from "./provider-notifications.js";
import { type SettleContext, settlePayment } from "./settle-payment.js";

/** What paying an invoice through its provider needs besides storage, clock, ids and providers. */
export interface InvoicePaymentContext extends SettleContext {
  /** Base URL of the hosted pages, without a trailing slash: the provider sends the payer back there. */
  readonly publicUrl: () => string;
}

export interface StartPaymentRequest {
  readonly invoiceId: string;
  readonly method: string;
}

/** Where the payer goes next: to the provider to confirm, or nowhere (the invoice is not payable). */
export type StartedPayment =
  | { readonly kind: "confirm"; readonly url: string; readonly payment: Payment }
  | { readonly kind: "closed"; readonly invoice: Invoice };

/** How many times a write that lost a race re-reads and tries again. */
const ATTEMPTS = 3;

/**
 * The payer chose a method on the hosted page (API.md 10.3.2): a `pending` Payment, stored with a bump
 * of the invoice's version so that two tabs choosing at once make one attempt, and a provider payment
 * made with a key derived from the invoice, the method and the attempt number. A pending attempt of
 * the same method is reused (the provider answers its key with the same payment); one the provider
 * already decided (the payer paid or declined and never came back) is settled on that answer first,
 * and the payer sees the receipt or gets a new attempt. Nothing here settles anything but on the
 * provider's verified word (`settlePayment`).
 */
export async function startInvoicePayment(
  context: InvoicePaymentContext,
  request: StartPaymentRequest,
): Promise<Result<StartedPayment, KopekError>> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const loaded = await loadInvoice(context, request.invoiceId);
    if (loaded.isErr()) return err(loaded.error);
    const { invoice, project } = loaded.value;
    const now = context.clock.now();
    if (invoiceStatusAt(invoice, now) !== "created") return ok({ kind: "closed", invoice });
    const methods = invoice.pinnedMethod !== null ? [invoice.pinnedMethod] : invoice.allowedMethods;
    const method = methods.find((m) => m === request.method);
    if (method === undefined)
      return err({
        code: "method_unavailable",
        detail: `this invoice cannot be paid with ${request.method}`,
      });

    const listed = await attemptsWith(context, invoice, method);
    if (listed.isErr()) return err(listed.error);
    const attempts = listed.value;
    const pending = attempts.find((p) => p.status === "pending");
    let confirmed: Result<StartedPayment, KopekError>;
    if (pending !== undefined) {
      confirmed = await confirmAt(context, project, invoice, pending, attemptNumber(attempts, pending));
    } else {
      const payment = pendingPayment(invoice, project, method, context.ids.newId(), now);
      const saved = await context.storage.saveInvoice(
        { ...invoice, version: invoice.version + 1 },
        [],
        [payment],
      );
      if (saved.isErr() && saved.error.code !== "conflict") return err(fromStorageError(saved.error));
      if (saved.isErr()) continue;
      confirmed = await confirmAt(context, project, invoice, payment, attempts.length + 1);
    }
    // Decided at the provider already: settled just now, so a fresh read shows the receipt or makes a new attempt.
    if (
      confirmed.isOk() &&
      confirmed.value.kind === "confirm" &&
      confirmed.value.payment.status !== "pending"
    )
      continue;
    return confirmed;
  }
  return err({ code: "internal_error", cause: new Error("startInvoicePayment: the invoice kept changing") });
}

/** The invoice's attempts with a method, newest first. */
async function attemptsWith(
  context: InvoicePaymentContext,
  invoice: Invoice,
  method: PaymentMethod,
): Promise<Result<readonly Payment[], KopekError>> {
  const listed = await context.storage.listPayments(invoice.projectId, {
    limit: 100,
    before: null,
    invoiceId: invoice.id,
    subscriptionId: null,
    status: null,
  });
  if (listed.isErr()) return err(fromStorageError(listed.error));
  return ok(listed.value.filter((p) => p.method === method));
}

/** The attempt's number among the invoice's attempts with its method (listed newest first): 1 for the first. */
function attemptNumber(attempts: readonly Payment[], payment: Payment): number {
  return attempts.length - attempts.findIndex((p) => p.id === payment.id);
}

/**
 * An attempt whose provider payment Kopek never heard of (no answer, or a crash between the answer
 * and its write): asked for again with the attempt's own key, so the provider answers the payment it
 * made, never a second one, and the attempt is settled on that answer. For the reconciler.
 */
export async function resumeInvoiceAttempt(
  context: InvoicePaymentContext,
  payment: Payment,
): Promise<Result<Payment, KopekError>> {
  const loaded = await loadInvoice(context, payment.invoiceId ?? "");
  if (loaded.isErr()) return err(loaded.error);
  const { invoice, project } = loaded.value;
  const attempts = await attemptsWith(context, invoice, payment.method);
  if (attempts.isErr()) return err(attempts.error);
  const number = attemptNumber(attempts.value, payment);
  const confirmed = await confirmAt(context, project, invoice, payment, number);
  return confirmed.map((started) => (started.kind === "confirm" ? started.payment : payment));
}

function pendingPayment(
  invoice: Invoice,
  project: Project,
  method: PaymentMethod,
  id: string,
  now: Date,
): Payment {
  const subject: PaymentSubject = {
    projectId: invoice.projectId,
    amount: invoice.amount,
    method,
    methodMask: null,
    provider: project.provider.kind,
    providerPaymentId: null,
    for: { invoiceId: invoice.id },
  };
  return newPayment(subject, { status: "pending" }, id, now);
}

/** Asks the provider for the attempt's payment (made now, or the one its key made before). */
async function confirmAt(
  context: InvoicePaymentContext,
  project: Project,
  invoice: Invoice,
  payment: Payment,
  attempt: number,
): Promise<Result<StartedPayment, KopekError>> {
  const provider = context.providerFor(project);
  const created = await provider.createPayment({
    paymentId: payment.id,
    money: invoice.amount,
    method: payment.method,
    description: invoice.description,
    receipt: invoice.receipt,
    returnUrl: `${context.publicUrl()}/pay/${invoice.id}/return?payment=${payment.id}`,
    notificationUrl: providerNotificationUrl(context.publicUrl(), project.id, project.provider.kind),
    idempotencyKey: `kopek:invoice:${invoice.id}:${payment.method}:${attempt}`,
    saveMethod: invoice.savePaymentMethod,
  });
  if (created.isErr()) {
    // An outage leaves the attempt pending: choosing again asks with the same key. A refusal ends it.
    if (created.error.code === "failed") await settlePayment(context, payment, failedAnswer());
    return err(fromProviderError(created.error));
  }
  const settled = await settlePayment(context, payment, created.value);
  if (settled.isErr()) return err(settled.error);
  // A provider whose checkout Kopek's own server serves (the sandbox) answers a path below publicUrl.
  const { confirmationUrl } = created.value;
  const url = confirmationUrl.startsWith("/") ? `${context.publicUrl()}${confirmationUrl}` : confirmationUrl;
  return ok({ kind: "confirm", url, payment: settled.value });
}

const failedAnswer = (): ProviderPayment => ({
  providerPaymentId: "",
  status: "canceled",
  failureCode: "provider_error",
  methodMask: null,
  savedMethod: null,
});

export interface CheckPaymentRequest {
  readonly invoiceId: string;
  readonly paymentId: string;
}

/**
 * The payer came back from the provider (API.md 10.3.3): the provider is asked how the payment stands
 * and Kopek settles on that answer. The payment as it stands then, with its invoice.
 */
export async function checkInvoicePayment(
  context: InvoicePaymentContext,
  request: CheckPaymentRequest,
): Promise<Result<{ readonly payment: Payment; readonly invoice: Invoice }, KopekError>> {
  const loaded = await loadInvoice(context, request.invoiceId);
  if (loaded.isErr()) return err(loaded.error);
  const { invoice, project } = loaded.value;
  const found = await context.storage.findPayment(invoice.projectId, request.paymentId);
  if (found.isErr()) return err(fromStorageError(found.error));
  const payment = found.value;
  if (payment === null || payment.invoiceId !== invoice.id) return err({ code: "not_found" });
  if (payment.status !== "pending" || payment.providerPaymentId === null) return ok({ payment, invoice });
  const answer = await context.providerFor(project).getPayment(payment.providerPaymentId);
  if (answer.isErr()) return ok({ payment, invoice });
  const settled = await settlePayment(context, payment, answer.value);
  if (settled.isErr()) return err(settled.error);
  const reread = await loadInvoice(context, invoice.id);
  return ok({ payment: settled.value, invoice: reread.isOk() ? reread.value.invoice : invoice });
}
