import type { Pool } from "pg";

/** An unpaid invoice inserted with exactly the columns 0.1's completions name (later ones take their defaults). */
export async function insertInvoiceAs01(pool: Pool, invoiceId: string, projectId: string): Promise<void> {
  await pool.query(
    `INSERT INTO invoices
       (id, project_id, status, amount, currency, description, comment, customer, metadata, payment_url,
        return_url, allowed_methods, method, pinned_method, created_at, expires_at, paid_at)
     VALUES ($1, $2, 'created', 250000, 'USD', 'Invoice', NULL, NULL, '{}', 'https://pay.example/x', NULL,
             '{card,sbp}', NULL, NULL, '2026-01-31T09:30:00.123Z', '2026-02-01T09:30:00.123Z', NULL)`,
    [invoiceId, projectId],
  );
}
