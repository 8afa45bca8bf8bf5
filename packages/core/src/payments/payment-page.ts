import { err, ok, type Result } from "neverthrow";
import type { KopekError } from "../api/errors.js";
import type { Invoice, PaymentMethod, Project } from "../domain/model.js";
import { formatMoney } from "../domain/money.js";
import { invoiceStatusAt } from "../domain/presenters.js";
import { invoiceEvent } from "../events/domain-event.js";
import type { Clock } from "../ports/clock.js";
import type { IdGenerator } from "../ports/id-generator.js";
import type { Storage } from "../ports/storage.js";
import { fromStorageError } from "../use-cases/execution.js";
import { type PaymentSubject, settledPayment } from "./payment-records.js";

/** What the hosted payment page shows for one invoice; the server only renders it. */
export interface PaymentPage {
  /** `payable` while the invoice can be paid; otherwise why not (a paid one shows its receipt). */
  readonly state: "payable" | "paid" | "expired" | "canceled";
  readonly invoiceId: string;
  readonly projectName: string;
  /** The amount in major units with its currency, e.g. `1499.00 RUB`. */
  readonly amount: string;
  readonly description: string;
  /** The methods the payer may choose: the pinned one, else the invoice's allowed methods. */
  readonly methods: readonly PaymentMethod[];
  readonly method: PaymentMethod | null;
  readonly paidAt: Date | null;
  readonly returnUrl: string | null;
}

export interface PayInvoiceRequest {
  readonly invoiceId: string;
  readonly method: string;
  /** The sandbox's two buttons: pay, or try a decline (the invoice stays payable). */
  readonly outcome: "pay" | "decline";
}

export type PaymentResult =
  /** Paid now, or already paid (a double submit): either way the receipt, never a second payment. */
  | { readonly kind: "paid"; readonly page: PaymentPage; readonly paidNow: boolean }
  | { readonly kind: "declined"; readonly page: PaymentPage }
  /** Expired or canceled: nothing was paid. */
  | { readonly kind: "closed"; readonly page: PaymentPage };

export interface PaymentContext {
  readonly storage: Storage;
  readonly clock: Clock;
  readonly ids: IdGenerator;
}

function pageOf(invoice: Invoice, projectName: string, now: Date): PaymentPage {
  const status = invoiceStatusAt(invoice, now);
  return {
    state: status === "created" ? "payable" : status,
    invoiceId: invoice.id,
    projectName,
    amount: formatMoney(invoice.amount),
    description: invoice.description,
    methods: invoice.pinnedMethod !== null ? [invoice.pinnedMethod] : invoice.allowedMethods,
    method: invoice.method,
    paidAt: invoice.paidAt,
    returnUrl: invoice.returnUrl,
  };
}

async function load(
  context: PaymentContext,
  invoiceId: string,
): Promise<Result<[Invoice, Project | null], KopekError>> {
  const found = await context.storage.findInvoiceById(invoiceId);
  if (found.isErr()) return err(fromStorageError(found.error));
  if (found.value === null) return err({ code: "not_found" });
  const project = await context.storage.findProject(found.value.projectId);
  if (project.isErr()) return err(fromStorageError(project.error));
  return ok([found.value, project.value]);
}

/** GET /pay/{id}: the page for an invoice; `not_found` for an unknown id. */
export async function paymentPage(
  context: PaymentContext,
  invoiceId: string,
): Promise<Result<PaymentPage, KopekError>> {
  const loaded = await load(context, invoiceId);
  return loaded.map(([invoice, project]) => pageOf(invoice, project?.name ?? "", context.clock.now()));
}

/**
 * POST /pay/{id}: created → paid with `paidAt`, `method`, the `invoice.paid` event and the succeeded
 * Payment in one version-checked write; a decline records a canceled Payment and leaves the invoice
 * payable. A write that lost a race re-reads: a concurrent payment shows its receipt.
 */
export async function payInvoice(
  context: PaymentContext,
  request: PayInvoiceRequest,
): Promise<Result<PaymentResult, KopekError>> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const loaded = await load(context, request.invoiceId);
    if (loaded.isErr()) return err(loaded.error);
    const [invoice, project] = loaded.value;
    const name = project?.name ?? "";
    const now = context.clock.now();
    const page = pageOf(invoice, name, now);
    if (page.state === "paid") return ok({ kind: "paid", page, paidNow: false });
    if (page.state !== "payable") return ok({ kind: "closed", page });
    const method = page.methods.find((m) => m === request.method);
    if (method === undefined)
      return err({
        code: "method_unavailable",
        detail: `this invoice cannot be paid with ${request.method}`,
      });
    const subject: PaymentSubject = {
      projectId: invoice.projectId,
      amount: invoice.amount,
      method,
      methodMask: null,
      provider: project?.provider.kind ?? "sandbox",
      providerPaymentId: null,
      for: { invoiceId: invoice.id },
    };
    if (request.outcome === "decline") {
      const declined = settledPayment(
        subject,
        { status: "canceled", failureCode: "payment_declined" },
        context.ids.newId(),
        now,
      );
      const saved = await context.storage.savePayment(declined, []);
      if (saved.isErr()) return err(fromStorageError(saved.error));
      return ok({ kind: "declined", page });
    }
    const paid: Invoice = { ...invoice, status: "paid", method, paidAt: now, version: invoice.version + 1 };
    const payment = settledPayment(subject, { status: "succeeded" }, context.ids.newId(), now);
    const saved = await context.storage.saveInvoice(
      paid,
      [invoiceEvent("invoice.paid", paid, now, context.ids)],
      [payment],
    );
    if (saved.isOk()) return ok({ kind: "paid", page: pageOf(paid, name, now), paidNow: true });
    if (saved.error.code !== "conflict") return err(fromStorageError(saved.error));
  }
  return err({ code: "internal_error", cause: new Error("payInvoice: the invoice kept changing") });
}
