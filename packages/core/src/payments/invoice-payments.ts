import { err, ok, type Result } from "neverthrow";
import type { KopekError } from "../domain/errors.js";
import { type Invoice, MAX_INVOICE_ATTEMPTS, type Payment, type PaymentMethod } from "../domain/model.js";
import { invoiceStatusAt } from "../domain/presenters.js";
import type { Project } from "../domain/project.js";
import type { PaymentRequest, ProviderPayment } from "../ports/payment-provider.js";
import { fromProviderError, fromStorageError } from "../use-cases/execution.js";
import { pageReturnPath } from "./page-paths.js";
import { loadInvoice } from "./payment-page.js";
import { NO_PAYMENT_MADE, newPayment, type PaymentSubject } from "./payment-records.js";
import { providerNotificationUrl } from "./provider-notifications.js";
import { type SettleContext, settlePayment } from "./settle-payment.js";

/** What paying an invoice through its provider needs besides storage, clock, ids and providers. */
export interface InvoicePaymentContext extends SettleContext {
  /** Base URL of the hosted pages, without a trailing slash: the provider sends the payer back there. */
  readonly publicUrl: () => string;
}

export interface StartPaymentRequest {
  readonly invoiceId: string;
  /** The invoice's project, as the page's URL names it; absent or null only for a legacy link (`loadInvoice`). */
  readonly projectId?: string | null | undefined;
  readonly method: string;
}

/**
 * Where the payer goes next: to the provider to confirm, or nowhere — the invoice is not payable
 * (`closed`: paid, expired or canceled) or has had its `MAX_INVOICE_ATTEMPTS` (`attempts_exhausted`).
 */
export type StartedPayment =
  | { readonly kind: "confirm"; readonly url: string; readonly payment: Payment }
  | { readonly kind: "closed"; readonly invoice: Invoice }
  | { readonly kind: "attempts_exhausted"; readonly invoice: Invoice };

/** How many times a write that lost a race re-reads and tries again. */
const ATTEMPTS = 3;

/**
 * The payer chose a method on the hosted page (API.md 10.3.2): a `pending` Payment, stored with the
 * invoice's `attempts` bumped in a version-checked write so that two tabs choosing at once make one
 * attempt, and a provider payment made with a key derived from the invoice, the method and the
 * attempt's number (which only grows, so no key is ever used for two attempts). A pending attempt of
 * the same method is reused (the provider answers its key with the same payment); one the provider
 * already decided (the payer paid or declined and never came back) is settled on that answer first,
 * and the payer sees the receipt or gets a new attempt, while fewer than `MAX_INVOICE_ATTEMPTS` were
 * made. Nothing here settles anything but on the provider's verified word (`settlePayment`).
 */
export async function startInvoicePayment(
  context: InvoicePaymentContext,
  request: StartPaymentRequest,
): Promise<Result<StartedPayment, KopekError>> {
  let projectId = request.projectId ?? null;
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const loaded = await loadInvoice(context, projectId, request.invoiceId);
    if (loaded.isErr()) return err(loaded.error);
    const { invoice, project } = loaded.value;
    // Known now, even for a legacy link: a read again names the project.
    projectId = invoice.projectId;
    const now = context.clock.now();
    if (invoiceStatusAt(invoice, now) !== "created") return ok({ kind: "closed", invoice });
    const methods = invoice.pinnedMethod !== null ? [invoice.pinnedMethod] : invoice.allowedMethods;
    const method = methods.find((m) => m === request.method);
    if (method === undefined)
      return err({
        code: "method_unavailable",
        detail: `this invoice cannot be paid with ${request.method}`,
      });

    const found = await pendingAttemptWith(context, invoice, method);
    if (found.isErr()) return err(found.error);
    let confirmed: Result<StartedPayment, KopekError>;
    if (found.value !== null) {
      confirmed = await confirmAt(context, project, invoice, found.value);
    } else {
      if (invoice.attempts >= MAX_INVOICE_ATTEMPTS) return ok({ kind: "attempts_exhausted", invoice });
      const number = invoice.attempts + 1;
      const payment = pendingPayment(invoice, project, method, number, context.ids.newId(), now);
      const saved = await context.storage.saveInvoice(
        { ...invoice, attempts: number, version: invoice.version + 1 },
        [],
        [payment],
      );
      if (saved.isErr() && saved.error.code !== "conflict") return err(fromStorageError(saved.error));
      if (saved.isErr()) continue;
      confirmed = await confirmAt(context, project, invoice, payment);
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

/**
 * The invoice's pending attempt with a method, or null. Only pending ones are listed, and an invoice
 * has at most one per method (a new one is made only when none is pending), so one page holds them.
 */
async function pendingAttemptWith(
  context: InvoicePaymentContext,
  invoice: Invoice,
  method: PaymentMethod,
): Promise<Result<Payment | null, KopekError>> {
  const listed = await context.storage.listPayments(invoice.projectId, {
    limit: 100,
    before: null,
    invoiceId: invoice.id,
    subscriptionId: null,
    status: "pending",
  });
  if (listed.isErr()) return err(fromStorageError(listed.error));
  return ok(listed.value.find((p) => p.method === method) ?? null);
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
  const loaded = await loadInvoice(context, payment.projectId, payment.invoiceId ?? "");
  if (loaded.isErr()) return err(loaded.error);
  const { invoice, project } = loaded.value;
  const confirmed = await confirmAt(context, project, invoice, payment);
  return confirmed.map((started) => (started.kind === "confirm" ? started.payment : payment));
}

function pendingPayment(
  invoice: Invoice,
  project: Project,
  method: PaymentMethod,
  attempt: number,
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
    customerId: invoice.customerId,
    for: { invoiceId: invoice.id, attempt },
  };
  return newPayment(subject, { status: "pending" }, id, now);
}

/** Asks the provider for the attempt's payment (made now, or the one its key made before). */
async function confirmAt(
  context: InvoicePaymentContext,
  project: Project,
  invoice: Invoice,
  payment: Payment,
): Promise<Result<StartedPayment, KopekError>> {
  const confirmed = await paymentToConfirm(context, project, payment, {
    paymentId: payment.id,
    money: invoice.amount,
    method: payment.method,
    description: invoice.description,
    receipt: invoice.receipt,
    returnUrl: `${context.publicUrl()}${pageReturnPath(invoice.projectId, invoice.id, payment.id)}`,
    notificationUrl: providerNotificationUrl(context.publicUrl(), project.id, project.provider.kind),
    idempotencyKey: attemptKey(invoice.id, payment),
    saveMethod: invoice.savePaymentMethod,
    expiresAt: invoice.expiresAt,
  });
  return confirmed.map(({ url, payment: settled }) => ({ kind: "confirm", url, payment: settled }));
}

/**
 * Asks the provider for a payment the payer confirms (made now, or the one its key made before) and
 * settles the recorded `payment` on its answer: where to send the payer, and the payment as settled.
 * An outage leaves the attempt pending (asked again with the same key); a refusal or a decline ends it
 * (no payment was made), so choosing again makes a new attempt with a new key.
 */
export async function paymentToConfirm(
  context: InvoicePaymentContext,
  project: Project,
  payment: Payment,
  request: PaymentRequest,
): Promise<Result<{ readonly url: string; readonly payment: Payment }, KopekError>> {
  const created = await context.providerFor(project).createPayment(request);
  if (created.isErr()) {
    if (created.error.code !== "unavailable")
      await settlePayment(context, payment, created.error.code === "declined" ? DECLINED : NO_PAYMENT_MADE);
    return err(fromProviderError(created.error));
  }
  const settled = await settlePayment(context, payment, created.value);
  if (settled.isErr()) return err(settled.error);
  // A provider whose checkout Kopek's own server serves (the sandbox) answers a path below publicUrl.
  const { confirmationUrl } = created.value;
  const url = confirmationUrl.startsWith("/") ? `${context.publicUrl()}${confirmationUrl}` : confirmationUrl;
  return ok({ url, payment: settled.value });
}

/** The provider's word that it declined a payment at once, making none. */
const DECLINED: ProviderPayment = { ...NO_PAYMENT_MADE, failureCode: "payment_declined" };

/**
 * The provider key of an invoice's attempt: `kopek:invoice:{invoiceId}:{method}:{number}`. Attempts
 * made before the number was stored (migration 0011) carry their number among the invoice's attempts
 * with that method, as their keys did; every later one a number above all of those.
 */
function attemptKey(invoiceId: string, payment: Payment): string {
  return `kopek:invoice:${invoiceId}:${payment.method}:${payment.attempt ?? payment.id}`;
}

export interface CheckPaymentRequest {
  readonly invoiceId: string;
  /** The invoice's project, as the return URL names it; absent or null only for a legacy link (`loadInvoice`). */
  readonly projectId?: string | null | undefined;
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
  const loaded = await loadInvoice(context, request.projectId ?? null, request.invoiceId);
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
  const reread = await loadInvoice(context, invoice.projectId, invoice.id);
  return ok({ payment: settled.value, invoice: reread.isOk() ? reread.value.invoice : invoice });
}
