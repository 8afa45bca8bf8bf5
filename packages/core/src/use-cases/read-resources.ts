import { err, ok, type Result } from "neverthrow";
import { encodeCursor, parseListQuery, type QueryParameters } from "../api/list-query.js";
import type { KopekError } from "../domain/errors.js";
import {
  INVOICE_STATUSES,
  type InvoiceStatus,
  PAYMENT_STATUSES,
  type PaymentStatus,
  REFUND_STATUSES,
  type RefundStatus,
} from "../domain/model.js";
import { presentInvoice, presentPayment, presentRefund, presentSubscription } from "../domain/presenters.js";
import type { Storage } from "../ports/storage.js";
import { fromStorageError } from "./execution.js";

/** A read: the body to answer with 200. */
export interface ReadOutcome {
  readonly body: unknown;
}

export interface ReadContext {
  readonly storage: Storage;
  readonly projectId: string;
  readonly now: Date;
}

/** GET /v1/subscriptions/{id}: another project's id is answered exactly like an unknown one. */
export async function getSubscription(
  context: ReadContext,
  id: string,
): Promise<Result<ReadOutcome, KopekError>> {
  const found = await context.storage.findSubscription(context.projectId, id);
  if (found.isErr()) return err(fromStorageError(found.error));
  return found.value === null ? err({ code: "not_found" }) : ok({ body: presentSubscription(found.value) });
}

/** GET /v1/invoices/{id}: the status as read now, so an unpaid invoice past expiresAt reads as expired. */
export async function getInvoice(context: ReadContext, id: string): Promise<Result<ReadOutcome, KopekError>> {
  const found = await context.storage.findInvoice(context.projectId, id);
  if (found.isErr()) return err(fromStorageError(found.error));
  return found.value === null
    ? err({ code: "not_found" })
    : ok({ body: presentInvoice(found.value, context.now) });
}

/** GET /v1/subscriptions: newest first, `{ data, nextCursor }`. */
export async function listSubscriptions(
  context: ReadContext,
  query: QueryParameters,
): Promise<Result<ReadOutcome, KopekError>> {
  const page = parseListQuery(query, null, ["customerId"]);
  if (page.isErr()) return err(page.error);
  const { limit, before, ids } = page.value;
  // One more than asked tells whether a next page exists without a second query.
  const rows = await context.storage.listSubscriptions(context.projectId, {
    limit: limit + 1,
    before,
    customerId: ids.customerId ?? null,
  });
  if (rows.isErr()) return err(fromStorageError(rows.error));
  return ok({ body: pageBody(rows.value, limit, presentSubscription) });
}

/** GET /v1/invoices: newest first, optionally by status as read now. */
export async function listInvoices(
  context: ReadContext,
  query: QueryParameters,
): Promise<Result<ReadOutcome, KopekError>> {
  const page = parseListQuery(query, INVOICE_STATUSES, ["customerId"]);
  if (page.isErr()) return err(page.error);
  const { limit, before, status, ids } = page.value;
  const rows = await context.storage.listInvoices(context.projectId, {
    limit: limit + 1,
    before,
    status: status as InvoiceStatus | null,
    customerId: ids.customerId ?? null,
    now: context.now,
  });
  if (rows.isErr()) return err(fromStorageError(rows.error));
  return ok({ body: pageBody(rows.value, limit, (invoice) => presentInvoice(invoice, context.now)) });
}

/** GET /v1/payments/{id}: another project's id is answered exactly like an unknown one. */
export async function getPayment(context: ReadContext, id: string): Promise<Result<ReadOutcome, KopekError>> {
  const found = await context.storage.findPayment(context.projectId, id);
  if (found.isErr()) return err(fromStorageError(found.error));
  return found.value === null ? err({ code: "not_found" }) : ok({ body: presentPayment(found.value) });
}

/** GET /v1/payments: newest first, by invoice, subscription and status (API.md 10.2). */
export async function listPayments(
  context: ReadContext,
  query: QueryParameters,
): Promise<Result<ReadOutcome, KopekError>> {
  const page = parseListQuery(query, PAYMENT_STATUSES, ["invoiceId", "subscriptionId", "customerId"]);
  if (page.isErr()) return err(page.error);
  const { limit, before, status, ids } = page.value;
  const rows = await context.storage.listPayments(context.projectId, {
    limit: limit + 1,
    before,
    status: status as PaymentStatus | null,
    invoiceId: ids.invoiceId ?? null,
    subscriptionId: ids.subscriptionId ?? null,
    customerId: ids.customerId ?? null,
  });
  if (rows.isErr()) return err(fromStorageError(rows.error));
  return ok({ body: pageBody(rows.value, limit, presentPayment) });
}

/** GET /v1/refunds/{id}: another project's id is answered exactly like an unknown one. */
export async function getRefund(context: ReadContext, id: string): Promise<Result<ReadOutcome, KopekError>> {
  const found = await context.storage.findRefund(context.projectId, id);
  if (found.isErr()) return err(fromStorageError(found.error));
  return found.value === null ? err({ code: "not_found" }) : ok({ body: presentRefund(found.value) });
}

/** GET /v1/refunds: newest first, by payment and status (API.md 10.6, 6). */
export async function listRefunds(
  context: ReadContext,
  query: QueryParameters,
): Promise<Result<ReadOutcome, KopekError>> {
  const page = parseListQuery(query, REFUND_STATUSES, ["paymentId"]);
  if (page.isErr()) return err(page.error);
  const { limit, before, status, ids } = page.value;
  const rows = await context.storage.listRefunds(context.projectId, {
    limit: limit + 1,
    before,
    status: status as RefundStatus | null,
    paymentId: ids.paymentId ?? null,
  });
  if (rows.isErr()) return err(fromStorageError(rows.error));
  return ok({ body: pageBody(rows.value, limit, presentRefund) });
}

/** A list's body: the first `limit` rows presented, and the cursor after them when more were found. */
export function pageBody<T extends { readonly id: string }>(
  rows: readonly T[],
  limit: number,
  present: (row: T) => unknown,
) {
  const data = rows.slice(0, limit);
  const last = data[data.length - 1];
  return {
    data: data.map(present),
    nextCursor: rows.length > limit && last !== undefined ? encodeCursor(last.id) : null,
  };
}
