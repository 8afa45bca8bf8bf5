import type { Invoice } from "@kopek/core";
import type { TokenCipher } from "./token-cipher.js";

/**
 * The invoices table's columns after `id` and `project_id`, once: each with its parameter cast and
 * its value as plain JSON data. Every statement that writes or reads an invoice derives from this
 * list: positional parameters (`invoiceValues`), the items of a create (`invoiceItem`), the SQL of
 * inserts and updates (resource-sql.ts, create-once-sql.ts), and the select list (`INVOICE_SELECT`).
 */
export const INVOICE_FIELDS = [
  { name: "status", cast: "text", of: (i: Invoice) => i.status },
  { name: "amount", cast: "bigint", of: (i: Invoice) => i.amount.amount },
  { name: "currency", cast: "text", of: (i: Invoice) => i.amount.currency },
  { name: "description", cast: "text", of: (i: Invoice) => i.description },
  { name: "comment", cast: "text", of: (i: Invoice) => i.comment },
  { name: "customer", cast: "jsonb", of: (i: Invoice) => i.customer },
  { name: "metadata", cast: "json", of: (i: Invoice) => i.metadata },
  { name: "payment_url", cast: "text", of: (i: Invoice) => i.paymentUrl },
  { name: "return_url", cast: "text", of: (i: Invoice) => i.returnUrl },
  { name: "allowed_methods", cast: "text[]", of: (i: Invoice) => i.allowedMethods },
  { name: "method", cast: "text", of: (i: Invoice) => i.method },
  { name: "pinned_method", cast: "text", of: (i: Invoice) => i.pinnedMethod },
  { name: "created_at", cast: "timestamptz", of: (i: Invoice) => i.createdAt.toISOString() },
  { name: "expires_at", cast: "timestamptz", of: (i: Invoice) => i.expiresAt.toISOString() },
  { name: "paid_at", cast: "timestamptz", of: (i: Invoice) => i.paidAt?.toISOString() ?? null },
  { name: "canceled_at", cast: "timestamptz", of: (i: Invoice) => i.canceledAt?.toISOString() ?? null },
  { name: "save_payment_method", cast: "boolean", of: (i: Invoice) => i.savePaymentMethod },
  { name: "saved_method", cast: "text", of: (i: Invoice) => i.savedMethod?.method ?? null },
  { name: "saved_method_mask", cast: "text", of: (i: Invoice) => i.savedMethod?.methodMask ?? null },
  {
    name: "saved_method_ref_ciphertext",
    cast: "bytea",
    of: (i: Invoice, cipher: TokenCipher) =>
      i.savedMethod === null
        ? null
        : cipher.encrypt(i.savedMethod.providerMethodRef, savedMethodContext(i.id)),
  },
  {
    name: "saved_method_ref_key_id",
    cast: "text",
    of: (i: Invoice, cipher: TokenCipher) => (i.savedMethod === null ? null : cipher.currentKeyId),
  },
  { name: "receipt", cast: "jsonb", of: (i: Invoice) => i.receipt },
  { name: "attempts", cast: "integer", of: (i: Invoice) => i.attempts },
  { name: "customer_id", cast: "uuid", of: (i: Invoice) => i.customerId },
  { name: "version", cast: "integer", of: (i: Invoice) => i.version },
] as const;

/** Bound into the saved method's ciphertext: moved to another invoice (or column), it fails to decrypt. */
export function savedMethodContext(invoiceId: string): string {
  return `${invoiceId}:saved-method`;
}

/**
 * The select list of a whole invoice row. Amounts are read as text so they stay exact strings whatever
 * int8 parser the caller's `pg` is configured with.
 */
export const INVOICE_SELECT = [
  "id",
  "project_id",
  ...INVOICE_FIELDS.map(({ name, cast }) => (cast === "bigint" ? `${name}::text AS ${name}` : name)),
].join(", ");

/** An invoice as positional parameters: its id, then `INVOICE_FIELDS` in order (its saved method's token encrypted). */
export function invoiceValues(invoice: Invoice, cipher: TokenCipher): unknown[] {
  const values: unknown[] = [invoice.id];
  for (const { cast, of } of INVOICE_FIELDS) values.push(asParameter(cast, of(invoice, cipher)));
  return values;
}

/** An invoice as one JSON object with a key per column, as `json_to_recordset` reads it (bytea as hex text). */
export function invoiceItem(invoice: Invoice, cipher: TokenCipher): Record<string, unknown> {
  const item: Record<string, unknown> = { id: invoice.id };
  for (const { name, of } of INVOICE_FIELDS) {
    const value = of(invoice, cipher);
    item[name] = value instanceof Uint8Array ? `\\x${Buffer.from(value).toString("hex")}` : value;
  }
  return item;
}

// A JSON value as node-postgres must be handed it: json as text, and a text[] as an array literal
// (payment methods are plain words: `{card,sbp}` needs no quoting).
function asParameter(cast: string, value: unknown): unknown {
  if (value === null) return null;
  if (cast === "json" || cast === "jsonb") return JSON.stringify(value);
  if (cast === "text[]") return `{${(value as readonly string[]).join(",")}}`;
  return value;
}
