import { containsCardNumber, luhnValid } from "@kopek/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { cardCustomerKeyOf } from "./order-id.js";
import {
  cardBindingRefOf,
  encodedRefOf,
  parseBoundAccountRef,
  parseCardBindingRef,
  parseStoredRef,
  storedRefOf,
} from "./stored-ref.js";

// A RebillId a merchant published from a T-Bank test (13 digits, a millisecond timestamp); it passes Luhn.
const CARD_LIKE_REBILL_ID = "1761673723009";

describe("refs in their b64: form", () => {
  it("a 13-digit RebillId that passes Luhn reads as a card number plainly, and never once encoded", () => {
    expect(luhnValid(CARD_LIKE_REBILL_ID)).toBe(true);
    const plain = storedRefOf("s1-0a1b", CARD_LIKE_REBILL_ID);
    expect(containsCardNumber(plain)).toBe(true);
    const encoded = encodedRefOf(plain);
    expect(containsCardNumber(encoded)).toBe(false);
    expect(parseStoredRef(encoded)).toEqual({ customerKey: "s1-0a1b", rebillId: CARD_LIKE_REBILL_ID });
  });

  it("never reads as a card number and always parses back, for any CustomerKey and RebillId", () => {
    const printable = fc.stringMatching(/^[\x20-\x7e]{1,36}$/);
    const rebillId = fc.stringMatching(/^[0-9]{1,20}$/);
    fc.assert(
      fc.property(printable, rebillId, (customerKey, id) => {
        const encoded = encodedRefOf(storedRefOf(customerKey, id));
        expect(containsCardNumber(encoded)).toBe(false);
        expect(parseStoredRef(encoded)).toEqual({ customerKey, rebillId: id });
      }),
      { numRuns: 2000 },
    );
  });

  it("reads a bound SBP account's ref encoded too", () => {
    expect(parseBoundAccountRef(encodedRefOf("q1:4111111111111111:A1"))).toEqual({
      requestKey: "4111111111111111",
      accountToken: "A1",
    });
  });

  it("is no ref when the text after b64: is not exact base64url of printable ASCII", () => {
    const good = encodedRefOf("customer:42");
    for (const bad of [
      `${good}=`,
      `${good}!`,
      "b64:",
      "b64:AAAA",
      encodedRefOf("cust\nomer:42"),
      encodedRefOf(good),
    ])
      expect(parseStoredRef(bad), bad).toBeNull();
    expect(parseStoredRef("customer:42")).toEqual({ customerKey: "customer", rebillId: "42" });
  });
});

describe("a card binding's saveRef (AddCard without a payment)", () => {
  it("reads back the CustomerKey and RequestKey of every binding the adapter names", () => {
    const requestKey = fc.oneof(fc.uuid(), fc.stringMatching(/^[0-9]{1,20}$/));
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 80 }), requestKey, (key, request) => {
        const customerKey = cardCustomerKeyOf(key);
        const ref = cardBindingRefOf(customerKey, request);
        expect(parseCardBindingRef(ref)).toEqual({ customerKey, requestKey: request });
        // Never a stored card's ref, and never a bound SBP account's.
        expect(parseStoredRef(ref)).toBeNull();
        expect(parseBoundAccountRef(ref)).toBeNull();
      }),
    );
  });

  it("is no binding's ref without the a1: form, a CustomerKey of 1–36 characters and a RequestKey", () => {
    for (const bad of [
      "",
      "c1-abc:ed989549-d3be-4758-95c7-22647e03f9ec",
      "a1::ed989549-d3be-4758-95c7-22647e03f9ec",
      "a1:c1-abc:",
      `a1:${"x".repeat(37)}:42`,
      "a1:c1-abc:42:43",
      "a1:c1 abc:42",
      "a1:c1-abc:4 2",
      storedRefOf("c1-abc", "42"),
      "q1:ed989549-d3be-4758-95c7-22647e03f9ec:A1",
    ])
      expect(parseCardBindingRef(bad), bad).toBeNull();
    expect(parseCardBindingRef("a1:testCustomer1234:13021e10-a3ed-4f14-bcd1-823b5ac37390")).toEqual({
      customerKey: "testCustomer1234",
      requestKey: "13021e10-a3ed-4f14-bcd1-823b5ac37390",
    });
  });
});
