import type { ScheduleStorage } from "@kopek/core";
import { INVOICE_SELECT } from "./invoice-columns.js";
import { CLAIM_DUE_SUBSCRIPTIONS } from "./resource-sql.js";
import { toInvoice, toSubscription } from "./rows.js";
import type { SqlContext } from "./sql-context.js";

/** The two scans across every project: renewals due (leased with SKIP LOCKED), invoices lapsed. */
export function scheduleStorage({ query, run, cipher }: SqlContext): ScheduleStorage {
  return {
    claimDueSubscriptions: (claim) =>
      run("claimDueSubscriptions", async () => {
        const limit = Math.floor(claim.limit);
        if (!(limit > 0)) return [];
        const { rows } = await query("claim_due_subscriptions", CLAIM_DUE_SUBSCRIPTIONS, [
          claim.now,
          limit,
          claim.leaseToken,
          claim.leaseExpiresAt,
        ]);
        return rows.map((row) => toSubscription(row, cipher));
      }),

    listLapsedInvoices: (now, limit) =>
      run("listLapsedInvoices", async () => {
        const { rows } = await query(
          "list_lapsed_invoices",
          `SELECT ${INVOICE_SELECT} FROM invoices WHERE status = 'created' AND expires_at <= $1
            ORDER BY expires_at LIMIT $2`,
          [now, Math.max(0, Math.floor(limit))],
        );
        return rows.map((row) => toInvoice(row, cipher));
      }),
  };
}
