import { err, ok, type Result } from "neverthrow";
import type { KopekError } from "../domain/errors.js";
import { generatedInvoiceDescription } from "../domain/generated-descriptions.js";
import { type Invoice, MAX_INVOICE_ATTEMPTS, type Money, type PaymentMethod } from "../domain/model.js";
import { orderNumberOf } from "../domain/order-number.js";
import { invoiceStatusAt } from "../domain/presenters.js";
import type { Project, SellerDetails } from "../domain/project.js";
import type { Clock } from "../ports/clock.js";
import type { IdGenerator } from "../ports/id-generator.js";
import type { PaymentProvider } from "../ports/payment-provider.js";
import type { Storage } from "../ports/storage.js";
import { fromStorageError } from "../use-cases/execution.js";
import type { OnAmountMismatch } from "./amount-rule.js";

/** What the hosted payment page shows for one invoice; the server only renders it. */
export interface PaymentPage {
  /**
   * `payable` while the invoice can be paid; otherwise why not (a paid one shows its receipt;
   * `attempts_exhausted`: it had its `MAX_INVOICE_ATTEMPTS` and none is pending).
   */
  readonly state: "payable" | "paid" | "expired" | "canceled" | "attempts_exhausted";
  readonly invoiceId: string;
  /** The invoice's short number for people (`orderNumberOf`): shown beside its id. */
  readonly orderNumber: string;
  /** The invoice's project: the page's canonical URL is `/pay/{projectId}/{invoiceId}`. */
  readonly projectId: string;
  /** Who is paid, as the payer sees it: the project's `displayName`, else its `name`. */
  readonly merchantName: string;
  /** The amount in minor units; the page formats it in the payer's language. */
  readonly amount: Money;
  readonly description: string;
  /**
   * Whether `description` is the one Kopek made because the request gave none (`Invoice for 1499.00 RUB`):
   * the page then says it in the payer's language (`Счёт на 1 499,00 ₽`).
   */
  readonly generatedDescription: boolean;
  /** Until when the invoice can be paid. */
  readonly expiresAt: Date;
  /** The methods the payer may choose: the pinned one, else the invoice's allowed methods. */
  readonly methods: readonly PaymentMethod[];
  readonly method: PaymentMethod | null;
  readonly paidAt: Date | null;
  readonly returnUrl: string | null;
  /** Where choosing a method may send the payer: the provider's `confirmationOrigins`. */
  readonly confirmationOrigins: readonly string[];
  /** Whether the project pays through the sandbox provider: the page says no money moves. */
  readonly test: boolean;
  /**
   * Where the fiscal receipt goes (API.md 10.7): the e-mail and phone the invoice's receipt names; null
   * without a receipt. The paid page tells the payer.
   */
  readonly receiptTo: { readonly email: string | null; readonly phone: string | null } | null;
  /** The seller's details the project sets, shown to the payer; null when none is set. */
  readonly seller: SellerDetails | null;
}

export interface PaymentContext {
  readonly storage: Storage;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  /** Told about every provider word refused for its amount or currency (API.md 10.1). */
  readonly onAmountMismatch?: OnAmountMismatch | undefined;
}

function pageOf(
  invoice: Invoice,
  project: Project,
  now: Date,
  confirmationOrigins: readonly string[],
  exhausted: boolean,
): PaymentPage {
  const status = invoiceStatusAt(invoice, now);
  return {
    state: status !== "created" ? status : exhausted ? "attempts_exhausted" : "payable",
    invoiceId: invoice.id,
    orderNumber: orderNumberOf(invoice.id),
    projectId: invoice.projectId,
    merchantName: project.displayName ?? project.name,
    amount: invoice.amount,
    description: invoice.description,
    generatedDescription: invoice.description === generatedInvoiceDescription(invoice.amount),
    expiresAt: invoice.expiresAt,
    methods: invoice.pinnedMethod !== null ? [invoice.pinnedMethod] : invoice.allowedMethods,
    method: invoice.method,
    paidAt: invoice.paidAt,
    returnUrl: invoice.returnUrl,
    confirmationOrigins,
    test: project.provider.kind === "sandbox",
    receiptTo: invoice.receipt === null ? null : invoice.receipt.customer,
    seller: project.seller ?? null,
  };
}

/**
 * An invoice in its project, with the project; `not_found` without either, and for an invoice of
 * another project. `projectId` null only for a legacy link (`/pay/{invoiceId}`, handed out before
 * links named the project): the invoice is then looked up by id alone (`findInvoiceById`, which on a
 * database sharded by project asks every shard) — the only lookup that does so.
 */
export async function loadInvoice(
  context: PaymentContext,
  projectId: string | null,
  invoiceId: string,
): Promise<Result<{ readonly invoice: Invoice; readonly project: Project }, KopekError>> {
  const found =
    projectId === null
      ? await context.storage.findInvoiceById(invoiceId)
      : await context.storage.findInvoice(projectId, invoiceId);
  if (found.isErr()) return err(fromStorageError(found.error));
  if (found.value === null) return err({ code: "not_found" });
  const project = await context.storage.findProject(found.value.projectId);
  if (project.isErr()) return err(fromStorageError(project.error));
  if (project.value === null) return err({ code: "not_found" });
  return ok({ invoice: found.value, project: project.value });
}

/**
 * GET /pay/{projectId}/{invoiceId} (`projectId` null: the legacy /pay/{invoiceId}): the page for an
 * invoice; `not_found` for an unknown id, or one of another project.
 */
export async function paymentPage(
  context: PaymentContext & { readonly providerFor: (project: Project) => PaymentProvider },
  invoiceId: string,
  projectId: string | null,
): Promise<Result<PaymentPage, KopekError>> {
  const loaded = await loadInvoice(context, projectId, invoiceId);
  if (loaded.isErr()) return err(loaded.error);
  const { invoice, project } = loaded.value;
  const exhausted = await attemptsExhausted(context, invoice);
  if (exhausted.isErr()) return err(exhausted.error);
  const origins = context.providerFor(project).capabilities.confirmationOrigins;
  return ok(pageOf(invoice, project, context.clock.now(), origins, exhausted.value));
}

/**
 * Whether the invoice had its `MAX_INVOICE_ATTEMPTS` and none of them is pending: choosing a method
 * then makes no new attempt (a pending one would still be offered again).
 */
async function attemptsExhausted(
  context: PaymentContext,
  invoice: Invoice,
): Promise<Result<boolean, KopekError>> {
  if (invoice.attempts < MAX_INVOICE_ATTEMPTS) return ok(false);
  const pending = await context.storage.listPayments(invoice.projectId, {
    limit: 1,
    before: null,
    invoiceId: invoice.id,
    subscriptionId: null,
    status: "pending",
  });
  if (pending.isErr()) return err(fromStorageError(pending.error));
  return ok(pending.value.length === 0);
}
