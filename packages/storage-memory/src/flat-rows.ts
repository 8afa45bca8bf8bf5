/**
 * Rows kept as one flat string each, a field a line, the last field free to hold anything. Memory
 * storage keeps a row for every write (an idempotency record for 24 hours, an invoice until it is
 * evicted); as a tree of objects (record, response, headers, the body's pieces, the invoice's amount,
 * customer, metadata, dates…) each one cost every young-generation collection a copy, and every full
 * one a walk, of ~30 objects. A flat string holds no pointers: a collection moves or marks it in one
 * step (docs/performance-log.md, "What a create keeps").
 */
export type FlatRow = string & { readonly __flatRow: true };

const SEPARATOR = "\n";

/**
 * `join`, not `+` or a template: V8 joins into one flat string, where concatenation (and
 * `JSON.stringify`'s own output) is a tree of pieces. Every field but the last must be free of line
 * breaks: numbers, hex, UUIDs, status words or JSON text (which escapes them).
 */
export function flatRow(fields: readonly (string | number)[]): FlatRow {
  return fields.join(SEPARATOR) as FlatRow;
}

/** The field at `index` (not the last). */
export function fieldAt(row: FlatRow, index: number): string {
  const start = skipFields(row, index);
  return row.slice(start, row.indexOf(SEPARATOR, start));
}

/** The first `count` fields, and the last field (everything after them). */
export function splitRow(row: FlatRow, count: number): { readonly fields: string[]; readonly last: string } {
  const fields: string[] = [];
  let start = 0;
  for (let i = 0; i < count; i++) {
    const end = row.indexOf(SEPARATOR, start);
    fields.push(row.slice(start, end));
    start = end + 1;
  }
  return { fields, last: row.slice(start) };
}

/** The last field (everything after the first `count`). */
export function lastField(row: FlatRow, count: number): string {
  return row.slice(skipFields(row, count));
}

const NEWLINE = 0x0a;
const MINUS = 0x2d;
const ZERO = 0x30;

/**
 * The number written as the field that starts at `bytes[start]` (up to the next line break or `end`),
 * read from a row's UTF-8 bytes in place: for scans over rows kept off the heap (off-heap-rows.ts).
 */
export function numberAt(bytes: Uint8Array, start: number, end: number): number {
  let i = start;
  const negative = bytes[i] === MINUS;
  if (negative) i += 1;
  let value = 0;
  for (; i < end && bytes[i] !== NEWLINE; i++) value = value * 10 + ((bytes[i] as number) - ZERO);
  return negative ? -value : value;
}

function skipFields(row: string, count: number): number {
  let start = 0;
  for (let i = 0; i < count; i++) start = row.indexOf(SEPARATOR, start) + 1;
  return start;
}
