import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalJson } from "./canonical-json.js";
import { fingerprintRequest } from "./idempotency-rules.js";
import { sentDigest } from "./sent-digest.js";

const fingerprintOf = (text: string) =>
  fingerprintRequest("POST", "/v1/invoices", canonicalJson(JSON.parse(text)));

describe("sentDigest", () => {
  it("is one digest for a body as text and as its UTF-8 bytes, and none for text with a lone surrogate", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), (text) => {
        const digest = sentDigest("POST", "/v1/invoices", text);
        if (!text.isWellFormed()) {
          expect(digest).toBeNull();
          return;
        }
        expect(digest).toMatch(/^[0-9a-f]{64}$/);
        expect(sentDigest("post", "/v1/invoices", Buffer.from(text, "utf8"))).toBe(digest);
      }),
    );
  });

  it("differs with the method, the path and the body", () => {
    const body = '{"a":1}';
    const digests = [
      sentDigest("POST", "/v1/invoices", body),
      sentDigest("PUT", "/v1/invoices", body),
      sentDigest("POST", "/v1/subscriptions", body),
      sentDigest("POST", "/v1/invoices", '{"a":2}'),
      sentDigest("POST", "/v1/invoices", undefined),
    ];
    expect(new Set(digests).size).toBe(digests.length);
    expect(sentDigest("POST", "/v1/invoices", "")).toBe(sentDigest("POST", "/v1/invoices", undefined));
  });

  it("is equal only where the fingerprint is equal: bodies with one digest have one fingerprint", () => {
    // Pairs of JSON texts that often share bytes: a value and the same value re-serialised.
    const texts = fc
      .jsonValue()
      .chain((value) =>
        fc.constantFrom(JSON.stringify(value), JSON.stringify(value, null, 1), JSON.stringify({ v: value })),
      );
    fc.assert(
      fc.property(texts, texts, (a, b) => {
        const [da, db] = [sentDigest("POST", "/v1/invoices", a), sentDigest("POST", "/v1/invoices", b)];
        if (da !== null && da === db) expect(fingerprintOf(a)).toBe(fingerprintOf(b));
        expect(da === db).toBe(a === b);
      }),
    );
  });
});
