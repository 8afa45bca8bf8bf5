import { holdsMoney, type MoneyRecordCounts, type ProjectDeletionStorage } from "@kopek/core";
import { toDate } from "./rows.js";
import { isUuid, type SqlContext } from "./sql-context.js";

const COUNT_MONEY = `SELECT
  (SELECT count(*) FROM invoices WHERE project_id = $1) AS invoices,
  (SELECT count(*) FROM subscriptions WHERE project_id = $1) AS subscriptions,
  (SELECT count(*) FROM payments WHERE project_id = $1) AS payments,
  (SELECT count(*) FROM refunds WHERE project_id = $1) AS refunds`;

/**
 * What a project's deletion removes, children before parents. Each is named rather than left to the
 * foreign keys' ON DELETE CASCADE: idempotency records have none (they are written before their
 * resource), and each count is printed. A table added later that references projects, events or
 * endpoints with ON DELETE CASCADE goes with them.
 */
const REMOVED = [
  ["webhookDeliveries", "webhook_deliveries"],
  ["events", "events"],
  ["webhookEndpoints", "webhook_endpoints"],
  ["customers", "customers"],
  ["idempotencyRecords", "idempotency_records"],
  ["apiKeys", "api_keys"],
] as const;

/** A project deleted with everything it has in one transaction, or kept and marked deleted. */
export function projectDeletionStorage({ query, run, transaction }: SqlContext): ProjectDeletionStorage {
  return {
    deleteProject: (projectId) =>
      run("deleteProject", () =>
        transaction(async (q) => {
          if (!isUuid(projectId)) return { kind: "not_found" } as const;
          // Held to the end: a money record being written meanwhile (its foreign key reads this row)
          // is either counted below or waits, then finds no project and fails.
          const { rows: found } = await q(
            "lock_project_for_deletion",
            "SELECT 1 FROM projects WHERE id = $1 FOR UPDATE",
            [projectId],
          );
          if (found.length === 0) return { kind: "not_found" } as const;
          const { rows } = await q("count_money_records", COUNT_MONEY, [projectId]);
          const row = rows[0] ?? {};
          const money: MoneyRecordCounts = {
            invoices: Number(row.invoices),
            subscriptions: Number(row.subscriptions),
            payments: Number(row.payments),
            refunds: Number(row.refunds),
          };
          if (holdsMoney(money)) return { kind: "has_money", money } as const;
          const removed: Record<(typeof REMOVED)[number][0], number> = {
            webhookDeliveries: 0,
            events: 0,
            webhookEndpoints: 0,
            customers: 0,
            idempotencyRecords: 0,
            apiKeys: 0,
          };
          for (const [kind, table] of REMOVED) {
            const deleted = await q(`delete_project_${table}`, `DELETE FROM ${table} WHERE project_id = $1`, [
              projectId,
            ]);
            removed[kind] = deleted.rowCount ?? 0;
          }
          await q("delete_project", "DELETE FROM projects WHERE id = $1", [projectId]);
          return { kind: "deleted", removed } as const;
        }),
      ),

    markProjectDeleted: (projectId, at) =>
      run("markProjectDeleted", async () => {
        if (!isUuid(projectId)) return null;
        const { rows } = await query(
          "mark_project_deleted",
          "UPDATE projects SET deleted_at = COALESCE(deleted_at, $2) WHERE id = $1 RETURNING deleted_at",
          [projectId, at],
        );
        return rows[0] === undefined ? null : toDate(rows[0].deleted_at);
      }),
  };
}
