import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createUuidV7Generator } from "../crypto/uuid-v7.js";
import { encodeCursor, parseListQuery } from "./list-query.js";

const statuses = ["created", "paid", "expired", "canceled"];
const codes = (query: Record<string, string | string[]>, s: string[] | null = statuses) => {
  const result = parseListQuery(query, s);
  return result.isErr() ? result.error.errors.map((e) => `${e.pointer} ${e.code}`) : [];
};

describe("parseListQuery", () => {
  it("defaults to 20 items from the newest", () => {
    expect(parseListQuery({}, statuses)._unsafeUnwrap()).toEqual({
      limit: 20,
      before: null,
      status: null,
      ids: {},
      texts: {},
    });
  });

  it("filters by related ids only where they apply, lower-cased, and refuses a malformed one", () => {
    fc.assert(
      fc.property(fc.uuid(), (id) => {
        const query = { invoiceId: id.toUpperCase() };
        expect(parseListQuery(query, null, ["invoiceId"])._unsafeUnwrap().ids).toEqual({
          invoiceId: id.toLowerCase(),
        });
        expect(codes(query, null)).toEqual(["#/invoiceId unknown_field"]);
      }),
    );
    const ids = (query: Record<string, string | string[]>) => {
      const result = parseListQuery(query, null, ["invoiceId", "subscriptionId"]);
      return result.isErr() ? result.error.errors.map((e) => `${e.pointer} ${e.code}`) : [];
    };
    expect(ids({ invoiceId: "nope" })).toEqual(["#/invoiceId invalid_format"]);
    expect(ids({ subscriptionId: ["a", "b"] })).toEqual(["#/subscriptionId invalid_type"]);
    expect(ids({ invoiceId: "" })).toEqual(["#/invoiceId invalid_format"]);
  });

  it("accepts limits from 1 to 100 and refuses the rest", () => {
    fc.assert(
      fc.property(fc.integer({ min: -5, max: 200 }), (n) => {
        expect(parseListQuery({ limit: String(n) }, null).isOk()).toBe(n >= 1 && n <= 100);
      }),
    );
    expect(codes({ limit: "abc" })).toEqual(["#/limit invalid_type"]);
    expect(codes({ limit: "1.5" })).toEqual(["#/limit invalid_type"]);
    expect(codes({ limit: ["1", "2"] })).toEqual(["#/limit invalid_type"]);
  });

  it("round-trips a cursor and refuses a forged one", () => {
    const id = createUuidV7Generator().newId();
    expect(parseListQuery({ cursor: encodeCursor(id) }, null)._unsafeUnwrap().before).toBe(id);
    expect(codes({ cursor: "bm9wZQ" })).toEqual(["#/cursor invalid_format"]);
    expect(codes({ cursor: id })).toEqual(["#/cursor invalid_format"]);
  });

  it("filters by a known status only where statuses apply, and refuses unknown parameters", () => {
    expect(parseListQuery({ status: "paid" }, statuses)._unsafeUnwrap().status).toBe("paid");
    expect(codes({ status: "lost" })).toEqual(["#/status invalid_value"]);
    expect(codes({ status: "paid" }, null)).toEqual(["#/status unknown_field"]);
    expect(codes({ limit: "0", cursor: "!", colour: "red" }).sort()).toEqual(
      ["#/colour unknown_field", "#/cursor invalid_format", "#/limit too_small"].sort(),
    );
  });
});
