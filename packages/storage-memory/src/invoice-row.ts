import { INVOICE_STATUSES, type Invoice, type InvoiceStatus } from "@kopek/core";
import { type FlatRow, flatRow, lastField, numberAt, splitRow } from "./flat-rows.js";
import type { Codec } from "./table.js";

/** What the store reads of a row without decoding the invoice. */
export type InvoiceFacts = Pick<Invoice, "projectId" | "version" | "status" | "expiresAt">;

// How each field is kept: a Date as epoch milliseconds (JSON.stringify leaves its fast path for a
// Date, calling its toJSON), anything else as it is.
type FieldKinds = { [K in keyof Invoice]-?: Date extends Invoice[K] ? "date" : "value" };
// Every field of an invoice, in the model's order; a row keeps their values as one JSON array, without
// the names (~290 of the ~800 bytes of a bench invoice, kept for every create). Checked against
// Invoice, so this stops compiling when a field is added, or a Date field is not marked as one.
const KINDS = {
  id: "value",
  projectId: "value",
  status: "value",
  amount: "value",
  description: "value",
  comment: "value",
  customer: "value",
  metadata: "value",
  paymentUrl: "value",
  returnUrl: "value",
  allowedMethods: "value",
  method: "value",
  pinnedMethod: "value",
  createdAt: "date",
  expiresAt: "date",
  paidAt: "date",
  canceledAt: "date",
  savePaymentMethod: "value",
  savedMethod: "value",
  receipt: "value",
  attempts: "value",
  customerId: "value",
  version: "value",
} satisfies FieldKinds;
const FIELDS = Object.keys(KINDS) as (keyof Invoice)[];
const IS_DATE = FIELDS.map((field) => KINDS[field] === "date");

/**
 * Invoices, each kept as a `FlatRow`: status (by number, first, so the sweeper's scan reads one
 * byte), expiry, version and project (as JSON), then the invoice's values as a JSON array.
 */
export const invoiceRows: Codec<Invoice, FlatRow> = {
  encode(invoice) {
    const { status, expiresAt, version, projectId } = invoice;
    const fields = [
      INVOICE_STATUSES.indexOf(status),
      expiresAt.getTime(),
      version,
      JSON.stringify(projectId),
    ];
    return flatRow([...fields, JSON.stringify(valuesOf(invoice))]);
  },
  decode(row) {
    const values: unknown[] = JSON.parse(lastField(row, 4));
    const invoice: Record<string, unknown> = {};
    for (let i = 0; i < FIELDS.length; i++) {
      const value = values[i];
      invoice[FIELDS[i] as string] = IS_DATE[i] && value !== null ? new Date(value as number) : value;
    }
    return invoice as unknown as Invoice;
  },
  head: invoiceFacts,
};

/** The invoice's values in `FIELDS` order, its dates as epoch milliseconds. */
function valuesOf(invoice: Invoice): unknown[] {
  const values: unknown[] = [];
  for (let i = 0; i < FIELDS.length; i++) {
    const value = invoice[FIELDS[i] as keyof Invoice];
    values.push(IS_DATE[i] && value !== null ? (value as Date).getTime() : value);
  }
  return values;
}

export function invoiceFacts(row: FlatRow): InvoiceFacts {
  const [status, expiresAt, version, projectId] = splitRow(row, 4).fields as [string, string, string, string];
  return {
    status: INVOICE_STATUSES[Number(status)] as InvoiceStatus,
    expiresAt: new Date(Number(expiresAt)),
    version: Number(version),
    projectId: JSON.parse(projectId),
  };
}

/**
 * The row's expiry (epoch milliseconds) when the invoice is stored as created, else null: what the
 * sweeper's scan reads of a row, from its UTF-8 bytes (`bytes[start..end)`) in place, so a sweep
 * decodes only the invoices it returns.
 */
export function createdExpiry(bytes: Uint8Array, start: number, end: number): number | null {
  if (end - start < 3 || bytes[start] !== CREATED_CODE || bytes[start + 1] !== NEWLINE) return null;
  return numberAt(bytes, start + 2, end);
}

const NEWLINE = 0x0a;
/** The status field of an invoice stored as created: its index in INVOICE_STATUSES, one digit. */
const CREATED_CODE = 0x30 + INVOICE_STATUSES.indexOf("created");
