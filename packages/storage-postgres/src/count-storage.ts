import type { CountStorage, InvoiceStatus, PaymentStatus, SubscriptionStatus } from "@kopek/core";
import type { SqlContext } from "./sql-context.js";

/**
 * `countResources`: one statement, every group a row (kind, status, provider, n, oldest). Across
 * projects; on Citus each part runs on every shard (deliveries join their events by project, which
 * are colocated).
 */
const COUNT_RESOURCES = `
SELECT 'payment' AS kind, status, provider, count(*)::int AS n, NULL::timestamptz AS oldest
  FROM payments GROUP BY status, provider
UNION ALL
SELECT 'invoice', status, NULL, count(*)::int, NULL FROM invoices GROUP BY status
UNION ALL
SELECT 'subscription', status, NULL, count(*)::int, NULL FROM subscriptions GROUP BY status
UNION ALL
SELECT 'delivery', NULL, NULL, count(*)::int, min(e.created_at)
  FROM webhook_deliveries d
  JOIN events e ON e.project_id = d.project_id AND e.id = d.event_id
 WHERE d.state = 'pending'`;

interface CountRow {
  readonly kind: "payment" | "invoice" | "subscription" | "delivery";
  readonly status: string | null;
  readonly provider: string | null;
  readonly n: number;
  readonly oldest: Date | null;
}

/** Counts for the operator's metrics, read across projects on an interval. */
export function countStorage(sql: SqlContext): CountStorage {
  return {
    countResources: () =>
      sql.run("countResources", async () => {
        const rows = await sql.acrossProjects<CountRow & Record<string, unknown>>(
          "count_resources",
          COUNT_RESOURCES,
          [],
        );
        const of = (kind: CountRow["kind"]) => rows.filter((row) => row.kind === kind);
        const delivery = of("delivery")[0];
        return {
          payments: of("payment").map((row) => ({
            status: row.status as PaymentStatus,
            provider: row.provider ?? "",
            count: Number(row.n),
          })),
          invoices: of("invoice").map((row) => ({
            status: row.status as InvoiceStatus,
            count: Number(row.n),
          })),
          subscriptions: of("subscription").map((row) => ({
            status: row.status as SubscriptionStatus,
            count: Number(row.n),
          })),
          pendingDeliveries: Number(delivery?.n ?? 0),
          oldestPendingEventAt: delivery?.oldest == null ? null : new Date(delivery.oldest),
        };
      }),
  };
}
