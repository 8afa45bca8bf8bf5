import type { Payment, PaymentListPage, PaymentStorage } from "@kopek/core";
import { eventsParameter } from "./outbox-rows.js";
import { INSERT_EVENTS } from "./outbox-sql.js";
import {
  INSERT_PAYMENT,
  PAYMENT_SELECT,
  paymentValues,
  toPayment,
  UPDATE_PAYMENT,
} from "./payment-columns.js";
import { claimByProject } from "./project-claims.js";
import { NO_CURSOR } from "./resource-sql.js";
import { isUuid, type Query, type SqlContext } from "./sql-context.js";
import { conflict } from "./storage-errors.js";

/**
 * Writes payments by the port's version rule — version 1 inserts a new id, version n replaces a stored
 * n−1 — stopping at the first that does not hold; whether all were written. Run inside the caller's
 * transaction, which a false answer must roll back.
 */
export async function writePayments(query: Query, payments: readonly Payment[]): Promise<boolean> {
  for (const payment of payments) {
    const [name, text] =
      payment.version === 1 ? ["insert_payment", INSERT_PAYMENT] : ["update_payment", UPDATE_PAYMENT];
    if ((await query(name, text, paymentValues(payment))).rowCount !== 1) return false;
  }
  return true;
}

// $1 project, $2 before, $3 limit, $4 invoice, $5 subscription, $6 status, $7 customer, $8 kind (a null
// kind is read as 0016_payment_kinds.sql says); a null filter matches all.
// The partial indexes serve a filter by invoice or subscription; `payments_project_idx` the rest.
const LIST_PAYMENTS = `
SELECT ${PAYMENT_SELECT} FROM payments
 WHERE project_id = $1 AND id < $2
   AND ($4::uuid IS NULL OR invoice_id = $4::uuid)
   AND ($5::uuid IS NULL OR subscription_id = $5::uuid)
   AND ($6::text IS NULL OR status = $6::text)
   AND ($7::uuid IS NULL OR customer_id = $7::uuid)
   AND ($8::text IS NULL OR COALESCE(kind, CASE WHEN invoice_id IS NULL THEN 'cycle' ELSE 'invoice' END) = $8::text)
 ORDER BY id DESC LIMIT $3`;

/** The projects of the earliest due pending payments: $1 now, $2 limit (`payments_check_idx`). */
const DISCOVER_PAYMENT_CHECKS = `
SELECT project_id FROM payments WHERE status = 'pending' AND next_check_at <= $1
 ORDER BY next_check_at, id LIMIT $2`;

/**
 * `claimPaymentChecks` in one project: $1 now, $2 limit, $3 lease end, $4 the project. Locks its
 * earliest due pending payments, skipping rows another claim or write holds, and moves their next
 * check to the lease's end (the version stays: the lease is not a change of the payment).
 */
const CLAIM_PAYMENT_CHECKS = `
WITH due AS (
  SELECT id FROM payments
   WHERE project_id = $4 AND status = 'pending' AND next_check_at <= $1
   ORDER BY next_check_at, id
   LIMIT $2
   FOR NO KEY UPDATE SKIP LOCKED
),
leased AS (
  UPDATE payments p SET next_check_at = $3
   WHERE p.project_id = $4 AND p.id = ANY (ARRAY(SELECT id FROM due))
  RETURNING p.*
)
SELECT ${PAYMENT_SELECT} FROM leased ORDER BY next_check_at, id`;

/**
 * `countPendingPayments`: $1 the cutoffs. The pending payments (`payments_check_idx` holds only them)
 * counted against each cutoff; a count per cutoff, in the cutoffs' order.
 */
const COUNT_PENDING_PAYMENTS = `
SELECT count(p.id)::int AS n
  FROM unnest($1::timestamptz[]) WITH ORDINALITY AS c(cutoff, i)
  LEFT JOIN payments p ON p.status = 'pending' AND p.created_at <= c.cutoff
 GROUP BY c.i ORDER BY c.i`;

/** Payments by project: one read, a filtered page, and version-checked saves with their events. */
export function paymentStorage(sql: SqlContext): PaymentStorage {
  const { query, run, fail, transaction } = sql;
  return {
    findPayment: (projectId, paymentId) =>
      run("findPayment", async () => {
        if (!isUuid(projectId) || !isUuid(paymentId)) return null;
        const { rows } = await query(
          "find_payment",
          `SELECT ${PAYMENT_SELECT} FROM payments WHERE project_id = $1 AND id = $2`,
          [projectId, paymentId],
        );
        return rows[0] === undefined ? null : toPayment(rows[0]);
      }),

    findPaymentByProviderId: (projectId, providerPaymentId) =>
      run("findPaymentByProviderId", async () => {
        if (!isUuid(projectId)) return null;
        const { rows } = await query(
          "find_payment_by_provider_id",
          `SELECT ${PAYMENT_SELECT} FROM payments WHERE project_id = $1 AND provider_payment_id = $2`,
          [projectId, providerPaymentId],
        );
        return rows[0] === undefined ? null : toPayment(rows[0]);
      }),

    listPayments: (projectId, page) =>
      run("listPayments", async () => {
        const parameters = listParameters(projectId, page);
        if (parameters === null) return [];
        const { rows } = await query("list_payments", LIST_PAYMENTS, parameters);
        return rows.map(toPayment);
      }),

    countPendingPayments: (cutoffs) =>
      run("countPendingPayments", async () => {
        const rows = await sql.acrossProjects("count_pending_payments", COUNT_PENDING_PAYMENTS, [cutoffs]);
        return rows.map((row) => Number(row.n));
      }),

    claimPaymentChecks: (claim) =>
      run("claimPaymentChecks", () =>
        claimByProject(sql, {
          name: "payment_checks",
          discover: DISCOVER_PAYMENT_CHECKS,
          claim: CLAIM_PAYMENT_CHECKS,
          values: [claim.leaseExpiresAt],
          now: claim.now,
          limit: claim.limit,
          toResult: toPayment,
        }),
      ),

    savePayment: (payment, events) =>
      run("savePayment", async () => {
        const write = async (q: Query) => {
          if (!(await writePayments(q, [payment]))) fail(conflict("savePayment", payment));
          if (events.length > 0)
            await q("insert_events", INSERT_EVENTS, [eventsParameter(events), payment.projectId]);
        };
        await (events.length === 0 ? write(query) : transaction(write));
      }),
  };
}

/** The page as parameters; null when it can hold nothing (a malformed id matches no row). */
function listParameters(projectId: string, page: PaymentListPage): unknown[] | null {
  const limit = Math.floor(page.limit);
  const ids = [projectId, page.before, page.invoiceId, page.subscriptionId, page.customerId ?? null];
  if (!(limit > 0) || ids.some((id) => id !== null && !isUuid(id))) return null;
  return [
    projectId,
    page.before ?? NO_CURSOR,
    limit,
    page.invoiceId,
    page.subscriptionId,
    page.status,
    page.customerId ?? null,
    page.kind ?? null,
  ];
}
