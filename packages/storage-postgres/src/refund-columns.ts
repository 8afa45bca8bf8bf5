import type { Refund, RefundStatus } from "@kopek/core";
import { toDate, toNullableDate } from "./rows.js";

/**
 * The refunds table's columns after `id` and `project_id`, once, each with its parameter cast and its
 * value: the insert, the version-checked update and the select list all derive from this list.
 */
const REFUND_FIELDS = [
  { name: "payment_id", cast: "uuid", of: (r: Refund) => r.paymentId },
  { name: "status", cast: "text", of: (r: Refund) => r.status },
  { name: "amount", cast: "bigint", of: (r: Refund) => r.amount.amount },
  { name: "currency", cast: "text", of: (r: Refund) => r.amount.currency },
  { name: "reason", cast: "text", of: (r: Refund) => r.reason },
  { name: "provider_refund_id", cast: "text", of: (r: Refund) => r.providerRefundId },
  { name: "created_at", cast: "timestamptz", of: (r: Refund) => r.createdAt.toISOString() },
  { name: "succeeded_at", cast: "timestamptz", of: (r: Refund) => r.succeededAt?.toISOString() ?? null },
  { name: "canceled_at", cast: "timestamptz", of: (r: Refund) => r.canceledAt?.toISOString() ?? null },
  { name: "next_check_at", cast: "timestamptz", of: (r: Refund) => r.nextCheckAt?.toISOString() ?? null },
  { name: "version", cast: "integer", of: (r: Refund) => r.version },
] as const;

/** Amounts read as text: exact strings whatever int8 parser the caller's `pg` is configured with. */
export const REFUND_SELECT = [
  "id",
  "project_id",
  ...REFUND_FIELDS.map(({ name, cast }) => (cast === "bigint" ? `${name}::text AS ${name}` : name)),
].join(", ");

/** A refund as positional parameters: its project, its id, then `REFUND_FIELDS` in order. */
export function refundValues(refund: Refund): unknown[] {
  return [refund.projectId, refund.id, ...REFUND_FIELDS.map(({ of }) => of(refund))];
}

const placeholders = REFUND_FIELDS.map(({ cast }, i) => `$${i + 3}::${cast}`);

/** A new refund (version 1); no row when its id is taken. */
export const INSERT_REFUND = `
INSERT INTO refunds (project_id, id, ${REFUND_FIELDS.map((f) => f.name).join(", ")})
VALUES ($1, $2, ${placeholders.join(", ")})
ON CONFLICT (project_id, id) DO NOTHING`;

/** Version n over a stored n−1 of the same project; no row otherwise. */
export const UPDATE_REFUND = `
UPDATE refunds
   SET ${REFUND_FIELDS.map((f, i) => `${f.name} = ${placeholders[i]}`).join(", ")}
 WHERE project_id = $1 AND id = $2 AND version = $${REFUND_FIELDS.length + 2}::integer - 1`;

type Row = Record<string, unknown>;

const nullableText = (value: unknown) => (value === null ? null : String(value));

export function toRefund(row: Row): Refund {
  return {
    id: String(row.id),
    projectId: String(row.project_id),
    paymentId: String(row.payment_id),
    status: row.status as RefundStatus,
    amount: { amount: String(row.amount), currency: String(row.currency) },
    reason: nullableText(row.reason),
    providerRefundId: nullableText(row.provider_refund_id),
    createdAt: toDate(row.created_at),
    succeededAt: toNullableDate(row.succeeded_at),
    canceledAt: toNullableDate(row.canceled_at),
    nextCheckAt: toNullableDate(row.next_check_at),
    version: Number(row.version),
  };
}
