import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { orderNumberOf } from "./order-number.js";

describe("orderNumberOf", () => {
  it("is two groups of four of Crockford's base32, never I, L, O or U, the same for the same id", () => {
    fc.assert(
      fc.property(fc.uuid(), (id) => {
        const number = orderNumberOf(id);
        expect(number).toMatch(/^[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/);
        expect(orderNumberOf(id.toUpperCase())).toBe(number);
      }),
    );
  });

  it("reads the UUID's last 40 bits: ids that differ there differ, in a known example too", () => {
    expect(orderNumberOf("01a2279d-cc2d-7779-ab38-000000000000")).toBe("0000-0000");
    expect(orderNumberOf("01a2279d-cc2d-7779-ab38-ffffffffffff")).toBe("ZZZZ-ZZZZ");
    // 0x6f8819f90b in fives: 01101 11110 00100 00001 10011 11110 01000 01011 = D Y 4 1 K Y 8 B.
    expect(orderNumberOf("01a2279d-cc2d-7779-ab38-b76f8819f90b")).toBe("DY41-KY8B");
    fc.assert(
      fc.property(fc.uuid(), fc.uuid(), (a, b) => {
        if (a.replaceAll("-", "").slice(-10) !== b.replaceAll("-", "").slice(-10))
          expect(orderNumberOf(a)).not.toBe(orderNumberOf(b));
      }),
    );
  });
});
