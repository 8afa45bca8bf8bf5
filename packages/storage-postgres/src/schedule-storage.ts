import type { ScheduleStorage } from "@kopek/core";
import { INVOICE_SELECT } from "./invoice-columns.js";
import { claimByProject } from "./project-claims.js";
import { CLAIM_DUE_SUBSCRIPTIONS, DISCOVER_DUE_SUBSCRIPTIONS } from "./resource-sql.js";
import { SUBSCRIPTION_COLUMNS, toInvoice, toSubscription } from "./rows.js";
import type { SqlContext } from "./sql-context.js";

/** Created invoices past their expiry, earliest first: $1 now, $2 limit (`invoices_lapsing_idx`). */
const LIST_LAPSED_INVOICES = `
SELECT ${INVOICE_SELECT} FROM invoices WHERE status = 'created' AND expires_at <= $1
 ORDER BY expires_at LIMIT $2`;

/** Subscriptions whose method-update link holds a pending save: $1 limit (`subscriptions_method_saves_idx`). */
const LIST_PENDING_METHOD_SAVES = `
SELECT ${SUBSCRIPTION_COLUMNS} FROM subscriptions
 WHERE method_update @> '{"saves": [{"state": "pending"}]}'::jsonb LIMIT $1`;

/**
 * The scans across every project: renewals due (leased project by project with SKIP LOCKED),
 * invoices lapsed (a plain read; the sweeper's saves are version-checked).
 */
export function scheduleStorage(sql: SqlContext): ScheduleStorage {
  const { run, cipher } = sql;
  return {
    claimDueSubscriptions: (claim) =>
      run("claimDueSubscriptions", () =>
        claimByProject(sql, {
          name: "due_subscriptions",
          discover: DISCOVER_DUE_SUBSCRIPTIONS,
          claim: CLAIM_DUE_SUBSCRIPTIONS,
          values: [claim.leaseToken, claim.leaseExpiresAt],
          now: claim.now,
          limit: claim.limit,
          toResult: (row) => toSubscription(row, cipher),
        }),
      ),

    listLapsedInvoices: (now, limit) =>
      run("listLapsedInvoices", async () => {
        const rows = await sql.acrossProjects("list_lapsed_invoices", LIST_LAPSED_INVOICES, [
          now,
          Math.max(0, Math.floor(limit)),
        ]);
        return rows.map((row) => toInvoice(row, cipher));
      }),

    listPendingMethodSaves: (limit) =>
      run("listPendingMethodSaves", async () => {
        const rows = await sql.acrossProjects("list_pending_method_saves", LIST_PENDING_METHOD_SAVES, [
          Math.max(0, Math.floor(limit)),
        ]);
        return rows.map((row) => toSubscription(row, cipher));
      }),
  };
}
