import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { IDEMPOTENCE_KEY_MAX_LENGTH, idempotenceKeyOf } from "./idempotence-key.js";

describe("Idempotence-Key", () => {
  it("passes a key that fits through unchanged", () => {
    const key = "invoice-0b6d2c2e-card-1";
    expect(idempotenceKeyOf(key)).toBe(key);
  });

  it("derives a stable key of at most 64 characters from a longer one", () => {
    const long = `renewal:${"x".repeat(100)}`;
    const derived = idempotenceKeyOf(long);
    expect(derived).toHaveLength(IDEMPOTENCE_KEY_MAX_LENGTH);
    expect(derived).toMatch(/^k1-[0-9a-f]{61}$/);
    expect(idempotenceKeyOf(long)).toBe(derived);
    expect(idempotenceKeyOf(`${long}y`)).not.toBe(derived);
  });

  it("never answers a key over the limit, and keeps distinct keys distinct (property)", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), fc.string({ maxLength: 200 }), (a, b) => {
        expect(idempotenceKeyOf(a).length).toBeLessThanOrEqual(IDEMPOTENCE_KEY_MAX_LENGTH);
        if (a !== b) expect(idempotenceKeyOf(a)).not.toBe(idempotenceKeyOf(b));
      }),
    );
  });
});
