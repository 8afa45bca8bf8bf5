import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createHarness, type KopekContractOptions, subscriptionBody } from "./kopek-harness.js";

const KNOWN_STATUSES = new Set([200, 201, 400, 401, 402, 404, 409, 422]);

/** Arbitrary JSON, and near-valid bodies with one field replaced by arbitrary JSON. */
const bodies = fc.oneof(
  fc.jsonValue(),
  fc
    .record({
      key: fc.constantFrom(
        "amount",
        "period",
        "method",
        "providerMethodRef",
        "metadata",
        "__proto__",
        "constructor",
      ),
      value: fc.jsonValue(),
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
