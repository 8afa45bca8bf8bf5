import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { awkwardJsonArb, awkwardTextArb, deeplyNestedArb, longTextArb } from "./awkward-text.js";
import { createHarness, type KopekContractOptions, subscriptionBody } from "./kopek-harness.js";

// 413: long text escapes to more than the body limit (`\u0000` is six bytes).
const KNOWN_STATUSES = new Set([200, 201, 400, 401, 402, 404, 409, 413, 422]);

/**
 * Arbitrary JSON, and near-valid bodies with one field replaced by arbitrary JSON, or by text people
 * really send: NUL, lone surrogates, zero-width and full-width characters, very long, deeply nested.
 */
const fieldValues = fc.oneof(fc.jsonValue(), awkwardJsonArb, awkwardTextArb, longTextArb, deeplyNestedArb);
const bodies = fc.oneof(
  fc.jsonValue(),
  awkwardJsonArb,
  // Valid but for awkward text where free text goes: what gets past everything else to storage.
  fc.tuple(awkwardTextArb, awkwardTextArb, awkwardTextArb).map(([description, key, value]) => ({
    ...subscriptionBody(),
    description,
    metadata: { [key.slice(0, 40)]: value },
  })),
  fc
    .record({
      key: fc.constantFrom(
        "amount",
        "period",
        "method",
        "providerMethodRef",
        "metadata",
        "description",
        "__proto__",
        "constructor",
      ),
      value: fieldValues,
    })
    .map(
      // Through JSON text, so a `__proto__` key arrives as an own property, as it does from a request.
      ({ key, value }) => JSON.parse(JSON.stringify({ ...subscriptionBody(), [key]: value })) as unknown,
    ),
);

export function registerFuzzTests(options: KopekContractOptions): void {
  describe("bad input", () => {
    it("never throws, never answers 5xx, always answers a well-formed document", async () => {
      const h = await createHarness(options);
      await fc.assert(
        fc.asyncProperty(bodies, fc.constantFrom("/v1/subscriptions", "/v1/invoices"), async (body, path) => {
          const response = await h.call(path, body);
          expect(KNOWN_STATUSES.has(response.status)).toBe(true);
          const parsed = JSON.parse(response.body) as Record<string, unknown>;
          if (response.status >= 400) {
            expect(response.headers["content-type"]).toBe("application/problem+json");
            expect(parsed.status).toBe(response.status);
            expect(typeof parsed.code).toBe("string");
          }
        }),
        { numRuns: 300 },
      );
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    });
  });
}
