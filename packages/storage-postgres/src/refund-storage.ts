import type { Refund, RefundListPage, RefundReservation, RefundStorage } from "@kopek/core";
import { eventsParameter } from "./outbox-rows.js";
import { INSERT_EVENTS } from "./outbox-sql.js";
import { writePayments } from "./payment-storage.js";
import { claimByProject } from "./project-claims.js";
import { INSERT_REFUND, REFUND_SELECT, refundValues, toRefund, UPDATE_REFUND } from "./refund-columns.js";
import { NO_CURSOR } from "./resource-sql.js";
import { isUuid, type Query, type SqlContext } from "./sql-context.js";
import { conflict } from "./storage-errors.js";

const FIND_REFUND = `SELECT ${REFUND_SELECT} FROM refunds WHERE project_id = $1 AND id = $2`;

// $1 project, $2 before, $3 limit, $4 payment, $5 status; a null filter matches all.
const LIST_REFUNDS = `
SELECT ${REFUND_SELECT} FROM refunds
 WHERE project_id = $1 AND id < $2
   AND ($4::uuid IS NULL OR payment_id = $4::uuid)
   AND ($5::text IS NULL OR status = $5::text)
 ORDER BY id DESC LIMIT $3`;

/**
 * What remains refundable of a payment ($1 project, $2 payment, $3 currency), its row locked until the
 * transaction ends: every reservation of one payment waits for the one before it, and reads the
 * refunds that one committed (READ COMMITTED takes a new snapshot per statement). No row: no such
 * payment. 0 for a payment not succeeded or in another currency.
 */
const LOCK_REFUNDABLE = `
WITH payment AS (
  SELECT id, status, currency, amount, amount_refunded FROM payments
   WHERE project_id = $1 AND id = $2
   FOR NO KEY UPDATE
)
SELECT CASE WHEN p.status = 'succeeded' AND p.currency = $3::text
            THEN p.amount - p.amount_refunded ELSE 0 END::text AS remaining
  FROM payment p`;

const HELD_BY_PENDING = `
SELECT COALESCE(SUM(amount), 0)::text AS held FROM refunds
 WHERE project_id = $1 AND payment_id = $2 AND status = 'pending'`;

/** A succeeded refund's amount joins its payment's `amountRefunded`: $1 project, $2 payment, $3 amount. */
const CREDIT_PAYMENT = `
UPDATE payments SET amount_refunded = amount_refunded + $3::bigint, version = version + 1
 WHERE project_id = $1 AND id = $2`;

/** The projects of the earliest due pending refunds: $1 now, $2 limit (`refunds_check_idx`). */
const DISCOVER_REFUND_CHECKS = `
SELECT project_id FROM refunds WHERE status = 'pending' AND next_check_at <= $1
 ORDER BY next_check_at, id LIMIT $2`;

/**
 * `claimRefundChecks` in one project: $1 now, $2 limit, $3 lease end, $4 the project; its earliest due
 * pending refunds, skipping rows another claim or write holds, leased by moving their next check (as
 * `claimPaymentChecks`).
 */
const CLAIM_REFUND_CHECKS = `
WITH due AS (
  SELECT id FROM refunds
   WHERE project_id = $4 AND status = 'pending' AND next_check_at <= $1
   ORDER BY next_check_at, id
   LIMIT $2
   FOR NO KEY UPDATE SKIP LOCKED
),
leased AS (
  UPDATE refunds r SET next_check_at = $3
   WHERE r.project_id = $4 AND r.id = ANY (ARRAY(SELECT id FROM due))
  RETURNING r.*
)
SELECT ${REFUND_SELECT} FROM leased ORDER BY next_check_at, id`;

/** Refunds by project: reads, a reservation against the payment's row lock, and version-checked saves. */
export function refundStorage(sql: SqlContext): RefundStorage {
  const { query, run, fail, transaction } = sql;
  return {
    findRefund: (projectId, refundId) =>
      run("findRefund", async () => {
        if (!isUuid(projectId) || !isUuid(refundId)) return null;
        const { rows } = await query("find_refund", FIND_REFUND, [projectId, refundId]);
        return rows[0] === undefined ? null : toRefund(rows[0]);
      }),

    listRefunds: (projectId, page) =>
      run("listRefunds", async () => {
        const parameters = listParameters(projectId, page);
        if (parameters === null) return [];
        const { rows } = await query("list_refunds", LIST_REFUNDS, parameters);
        return rows.map(toRefund);
      }),

    reserveRefund: (refund, payment, events) =>
      run("reserveRefund", async () => {
        const ids = [refund.projectId, refund.id, refund.paymentId];
        if (!ids.every(isUuid)) return { kind: "exceeds" as const, refundable: "0" };
        try {
          return await transaction(async (q) => {
            // A payment settled with its refund is written first, so the lock below reads it as written.
            if (payment !== null && !(await writePayments(q, [payment])))
              fail(conflict("reserveRefund", payment));
            const outcome = await reserve(q, refund);
            // Nothing of a refused reservation stays, the payment it came with included.
            if (outcome.kind !== "reserved" && payment !== null) throw new Undo(outcome);
            if (outcome.kind === "reserved" && events.length > 0)
              await q("insert_events", INSERT_EVENTS, [eventsParameter(events), refund.projectId]);
            return outcome;
          });
        } catch (error) {
          if (error instanceof Undo) return error.outcome;
          throw error;
        }
      }),

    saveRefund: (refund, events) =>
      run("saveRefund", () =>
        transaction(async (q) => {
          const before = await q<{ status: string }>(
            "lock_refund",
            "SELECT status FROM refunds WHERE project_id = $1 AND id = $2 AND version = $3 FOR UPDATE",
            [refund.projectId, refund.id, refund.version - 1],
          );
          const previous = before.rows[0]?.status;
          if (previous === undefined) fail(conflict("saveRefund", refund));
          if ((await q("update_refund", UPDATE_REFUND, refundValues(refund))).rowCount !== 1)
            fail(conflict("saveRefund", refund));
          if (previous === "pending" && refund.status === "succeeded")
            await q("credit_payment", CREDIT_PAYMENT, [
              refund.projectId,
              refund.paymentId,
              refund.amount.amount,
            ]);
          if (events.length > 0)
            await q("insert_events", INSERT_EVENTS, [eventsParameter(events), refund.projectId]);
        }),
      ),

    claimRefundChecks: (claim) =>
      run("claimRefundChecks", () =>
        claimByProject(sql, {
          name: "refund_checks",
          discover: DISCOVER_REFUND_CHECKS,
          claim: CLAIM_REFUND_CHECKS,
          values: [claim.leaseExpiresAt],
          now: claim.now,
          limit: claim.limit,
          toResult: toRefund,
        }),
      ),
  };
}

/** Thrown to roll a reservation's transaction back while answering what it found. */
class Undo {
  constructor(readonly outcome: RefundReservation) {}
}

/** The reservation itself, in the caller's transaction: the payment's row locked, then summed. */
async function reserve(q: Query, refund: Refund): Promise<RefundReservation> {
  const key = [refund.projectId, refund.paymentId];
  const locked = await q<{ remaining: string }>("lock_refundable", LOCK_REFUNDABLE, [
    ...key,
    refund.amount.currency,
  ]);
  const existing = await q("find_refund", FIND_REFUND, [refund.projectId, refund.id]);
  if (existing.rows[0] !== undefined) return { kind: "exists", refund: toRefund(existing.rows[0]) };
  const held = await q<{ held: string }>("held_by_pending_refunds", HELD_BY_PENDING, key);
  const remaining = BigInt(locked.rows[0]?.remaining ?? "0") - BigInt(held.rows[0]?.held ?? "0");
  if (BigInt(refund.amount.amount) > remaining)
    return { kind: "exceeds", refundable: (remaining > 0n ? remaining : 0n).toString() };
  // The id was free a statement ago and this payment's lock is held: the insert writes one row.
  await q("insert_refund", INSERT_REFUND, refundValues(refund));
  return { kind: "reserved" };
}

/** The page as parameters; null when it can hold nothing (a malformed id matches no row). */
function listParameters(projectId: string, page: RefundListPage): unknown[] | null {
  const limit = Math.floor(page.limit);
  const ids = [projectId, page.before, page.paymentId];
  if (!(limit > 0) || ids.some((id) => id !== null && !isUuid(id))) return null;
  return [projectId, page.before ?? NO_CURSOR, limit, page.paymentId, page.status];
}
