import { containsCardNumber, luhnValid } from "@kopek/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { encodedRefOf, parseBoundAccountRef, parseStoredRef, storedRefOf } from "./stored-ref.js";

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
