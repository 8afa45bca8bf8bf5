import { sampleInvoice, sampleReceipt } from "@kopek/testing";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createdExpiry, invoiceFacts, invoiceRows as rows } from "./invoice-row.js";

const date = fc.date({ min: new Date(0), max: new Date(8_640_000_000_000_000), noInvalidDate: true });
const text = fc.string({ unit: "binary" });
// The fields an invoice's row must carry whatever they hold: line breaks, any Unicode, `__proto__`.
const invoice = fc
  .record({
    projectId: text,
    description: text,
    comment: fc.option(text, { nil: null }),
    metadata: fc.dictionary(fc.oneof(text, fc.constant("__proto__")), text, { noNullPrototype: true }),
    status: fc.constantFrom("created", "paid", "canceled", "expired" as const),
    createdAt: date,
    expiresAt: date,
    paidAt: fc.option(date, { nil: null }),
    canceledAt: fc.option(date, { nil: null }),
    version: fc.integer({ min: 1, max: 1_000_000 }),
    receipt: fc.constantFrom(null, sampleReceipt()),
  })
  .map(({ projectId, ...fields }) => sampleInvoice(projectId, fields));

describe("InvoiceRows", () => {
  it("decodes to exactly the invoice it was made of", () => {
    fc.assert(
      fc.property(invoice, (stored) => {
        const decoded = rows.decode(rows.encode(stored, false));
        expect(decoded).toStrictEqual(stored);
        expect(Object.keys(decoded)).toEqual(Object.keys(stored));
      }),
    );
  });

  it("reads version, status, expiry and project without decoding the invoice", () => {
    fc.assert(
      fc.property(invoice, (stored) => {
        const { version, status, expiresAt, projectId } = stored;
        expect(invoiceFacts(rows.encode(stored, false))).toStrictEqual({
          version,
          status,
          expiresAt,
          projectId,
        });
      }),
    );
  });

  it("reads the expiry in place from a row stored as created, and none from any other", () => {
    fc.assert(
      fc.property(invoice, (stored) => {
        const bytes = Buffer.from(`padding${rows.encode(stored, false)}`);
        const expected = stored.status === "created" ? stored.expiresAt.getTime() : null;
        expect(createdExpiry(bytes, 7, bytes.length)).toBe(expected);
      }),
    );
  });

  it("gives every reader a value of its own", () => {
    const row = rows.encode(sampleInvoice("p"), false);
    const first = rows.decode(row);
    (first.metadata as Record<string, string>).orderId = "changed";
    first.createdAt.setTime(0);
    expect(rows.decode(row)).toStrictEqual(sampleInvoice("p", { id: first.id }));
  });
});
