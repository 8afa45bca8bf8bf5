import type { Payment, PaymentFailureCode, PaymentKind, PaymentMethod, PaymentStatus } from "@kopek/core";
import { toDate, toNullableDate } from "./rows.js";

/**
 * The payments table's columns after `id` and `project_id`, once, each with its parameter cast and
 * its value: the insert, the version-checked update and the select list all derive from this list.
 */
const PAYMENT_FIELDS = [
  { name: "status", cast: "text", of: (p: Payment) => p.status },
  { name: "amount", cast: "bigint", of: (p: Payment) => p.amount.amount },
  { name: "currency", cast: "text", of: (p: Payment) => p.amount.currency },
  { name: "amount_refunded", cast: "bigint", of: (p: Payment) => p.amountRefunded },
  { name: "method", cast: "text", of: (p: Payment) => p.method },
  { name: "method_mask", cast: "text", of: (p: Payment) => p.methodMask },
  { name: "invoice_id", cast: "uuid", of: (p: Payment) => p.invoiceId },
  { name: "subscription_id", cast: "uuid", of: (p: Payment) => p.subscriptionId },
  { name: "cycle", cast: "integer", of: (p: Payment) => p.cycle },
  { name: "kind", cast: "text", of: (p: Payment) => p.kind },
  { name: "provider", cast: "text", of: (p: Payment) => p.provider },
  { name: "provider_payment_id", cast: "text", of: (p: Payment) => p.providerPaymentId },
  { name: "failure_code", cast: "text", of: (p: Payment) => p.failureCode },
  { name: "created_at", cast: "timestamptz", of: (p: Payment) => p.createdAt.toISOString() },
  { name: "succeeded_at", cast: "timestamptz", of: (p: Payment) => p.succeededAt?.toISOString() ?? null },
  { name: "canceled_at", cast: "timestamptz", of: (p: Payment) => p.canceledAt?.toISOString() ?? null },
  { name: "next_check_at", cast: "timestamptz", of: (p: Payment) => p.nextCheckAt?.toISOString() ?? null },
  { name: "attempt", cast: "integer", of: (p: Payment) => p.attempt },
  { name: "customer_id", cast: "uuid", of: (p: Payment) => p.customerId },
  { name: "version", cast: "integer", of: (p: Payment) => p.version },
] as const;

/** Amounts read as text: exact strings whatever int8 parser the caller's `pg` is configured with. */
export const PAYMENT_SELECT = [
  "id",
  "project_id",
  ...PAYMENT_FIELDS.map(({ name, cast }) => (cast === "bigint" ? `${name}::text AS ${name}` : name)),
].join(", ");

/** A payment as positional parameters: its project, its id, then `PAYMENT_FIELDS` in order. */
export function paymentValues(payment: Payment): unknown[] {
  return [payment.projectId, payment.id, ...PAYMENT_FIELDS.map(({ of }) => of(payment))];
}

const placeholders = PAYMENT_FIELDS.map(({ cast }, i) => `$${i + 3}::${cast}`);

/** A new payment (version 1); no row when its id is taken. */
export const INSERT_PAYMENT = `
INSERT INTO payments (project_id, id, ${PAYMENT_FIELDS.map((f) => f.name).join(", ")})
VALUES ($1, $2, ${placeholders.join(", ")})
ON CONFLICT (project_id, id) DO NOTHING`;

/** Version n over a stored n−1 of the same project; no row otherwise. */
export const UPDATE_PAYMENT = `
UPDATE payments
   SET ${PAYMENT_FIELDS.map((f, i) => `${f.name} = ${placeholders[i]}`).join(", ")}
 WHERE project_id = $1 AND id = $2 AND version = $${PAYMENT_FIELDS.length + 2}::integer - 1`;

type Row = Record<string, unknown>;

const nullableText = (value: unknown) => (value === null ? null : String(value));

export function toPayment(row: Row): Payment {
  return {
    id: String(row.id),
    projectId: String(row.project_id),
    status: row.status as PaymentStatus,
    amount: { amount: String(row.amount), currency: String(row.currency) },
    amountRefunded: String(row.amount_refunded),
    method: row.method as PaymentMethod,
    methodMask: nullableText(row.method_mask),
    invoiceId: nullableText(row.invoice_id),
    subscriptionId: nullableText(row.subscription_id),
    cycle: row.cycle === null ? null : Number(row.cycle),
    // Null: a row from before migration 0016, or an older process's (0016_payment_kinds.sql).
    kind: (row.kind ?? (row.invoice_id === null ? "cycle" : "invoice")) as PaymentKind,
    provider: String(row.provider),
    providerPaymentId: nullableText(row.provider_payment_id),
    failureCode: row.failure_code as PaymentFailureCode | null,
    createdAt: toDate(row.created_at),
    succeededAt: toNullableDate(row.succeeded_at),
    canceledAt: toNullableDate(row.canceled_at),
    nextCheckAt: toNullableDate(row.next_check_at),
    attempt: row.attempt === null ? null : Number(row.attempt),
    customerId: nullableText(row.customer_id ?? null),
    version: Number(row.version),
  };
}
