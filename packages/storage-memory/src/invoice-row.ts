import { INVOICE_STATUSES, type Invoice, type InvoiceStatus } from "@kopek/core";
import { type FlatRow, fieldAt, flatRow, lastField, splitRow } from "./flat-rows.js";
import type { Codec } from "./table.js";

/** What the store reads of a row without decoding the invoice. */
export type InvoiceFacts = Pick<Invoice, "projectId" | "version" | "status" | "expiresAt">;

type DateKeys<T> = { [K in keyof T]-?: Date extends T[K] ? K : never }[keyof T];
// Every Date field of an invoice, kept in the JSON as epoch milliseconds and revived on decode: a
// Record, so this stops compiling when Invoice gains a Date field that it lacks.
const DATE_FIELDS = Object.keys({
  createdAt: true,
  expiresAt: true,
  paidAt: true,
  canceledAt: true,
} satisfies Record<DateKeys<Invoice>, true>) as DateKeys<Invoice>[];

// A row's fields: status (by number, first, so the sweeper's scan reads one character), expiry,
// version and project (as JSON), then the invoice's JSON.
const CREATED = `${INVOICE_STATUSES.indexOf("created")}\n`;

/** Invoices, each kept as a `FlatRow`. */
export const invoiceRows: Codec<Invoice, FlatRow> = {
  encode(invoice) {
    const { status, expiresAt, version, projectId } = invoice;
    const fields = [
      INVOICE_STATUSES.indexOf(status),
      expiresAt.getTime(),
      version,
      JSON.stringify(projectId),
    ];
    return flatRow([...fields, JSON.stringify(withEpochDates(invoice))]);
  },
  decode(row) {
    const invoice = JSON.parse(lastField(row, 4));
    for (const field of DATE_FIELDS) if (invoice[field] !== null) invoice[field] = new Date(invoice[field]);
    return invoice;
  },
  head: invoiceFacts,
};

/**
 * The invoice with its dates as epoch milliseconds. `JSON.stringify` leaves its fast path for an object
 * holding a `Date` (it calls `toJSON`): 3.3 µs for a bench invoice on Node 20, 1.8 µs with this copy.
 */
function withEpochDates(invoice: Invoice): Record<string, unknown> {
  const plain: Record<string, unknown> = { ...invoice };
  for (const field of DATE_FIELDS) {
    const date = invoice[field];
    plain[field] = date === null ? null : date.getTime();
  }
  return plain;
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

/** Whether the invoice is stored as created and its expiry has come at `now` (epoch milliseconds). */
export function lapsedAt(row: FlatRow, now: number): boolean {
  return row.startsWith(CREATED) && invoiceExpiresAt(row) <= now;
}

/** The row's expiry, epoch milliseconds. */
export function invoiceExpiresAt(row: FlatRow): number {
  return Number(fieldAt(row, 1));
}
