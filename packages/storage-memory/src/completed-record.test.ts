import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { completedExpiresAt, decodeCompleted, encodeCompleted, expiredInPlace } from "./completed-record.js";

const hex = fc.stringMatching(/^[0-9a-f]{64}$/);
const fields = fc.record({
  recordId: fc.uuid(),
  fingerprint: hex,
  sentDigest: fc.option(hex, { nil: undefined }),
  expiresAt: fc.integer({ min: 0, max: 8_640_000_000_000_000 }),
  response: fc.record({
    status: fc.integer({ min: 100, max: 599 }),
    // Header values and bodies may hold the line separator, and anything else.
    headers: fc.dictionary(fc.string(), fc.string({ unit: "binary" }), { noNullPrototype: true }),
    body: fc.string({ unit: "binary" }),
  }),
});

describe("completed record", () => {
  it("gives back exactly what was put, whatever the headers and body hold", () => {
    fc.assert(
      fc.property(fields, (record) => {
        const encoded = encodeCompleted(record);
        expect(decodeCompleted(encoded)).toEqual(record);
        expect(completedExpiresAt(encoded)).toBe(record.expiresAt);
      }),
    );
  });

  it("reads its expiry in place, from its bytes, as a scan of rows off the heap does", () => {
    fc.assert(
      fc.property(fields, fc.integer({ min: -1, max: 1 }), (record, offset) => {
        const bytes = Buffer.from(`padding${encodeCompleted(record)}`);
        const now = record.expiresAt + offset;
        expect(expiredInPlace(bytes, 7, bytes.length, now)).toBe(offset >= 0);
      }),
    );
  });

  it("keeps a body made of line breaks and a header holding one", () => {
    const record = {
      recordId: "0193a5a0-0000-7000-8000-000000000001",
      fingerprint: "a".repeat(64),
      sentDigest: "b".repeat(64),
      expiresAt: 1_764_115_200_000,
      response: { status: 201, headers: { location: "/v1/invoices/1\n", "x-a": "" }, body: "\n\n{}\n" },
    };
    expect(decodeCompleted(encodeCompleted(record))).toEqual(record);
  });
});
