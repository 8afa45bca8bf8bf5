import { describe, expect, it } from "vitest";
import { describeTestMethod, sandboxMethodFingerprint } from "./test-cards.js";

describe("describeTestMethod", () => {
  it("gives a ref the same card every time, with a real issuer prefix", () => {
    const card = describeTestMethod({ ref: "pm_test_123", method: "card" });
    expect(describeTestMethod({ ref: "pm_test_123", method: "card" })).toEqual(card);
    expect(card).toMatchObject({ kind: "card", length: 16 });
    if (card.kind !== "card") throw new Error("expected a card");
    expect(card.first6).toMatch(/^(220[0-4]\d\d|4\d{5}|5[1-5]\d{4})$/);
    expect(card.last4).toMatch(/^\d{4}$/);
  });

  it("gives different refs different cards", () => {
    const last4s = new Set(
      Array.from({ length: 50 }, (_, i) => describeTestMethod({ ref: `pm_${i}`, method: "card" })).map(
        (card) => (card.kind === "card" ? `${card.first6}${card.last4}` : card.mask),
      ),
    );
    expect(last4s.size).toBeGreaterThan(45);
  });

  it("masks an SBP method deterministically", () => {
    const description = describeTestMethod({ ref: "pm_sbp_1", method: "sbp" });
    expect(description).toEqual(describeTestMethod({ ref: "pm_sbp_1", method: "sbp" }));
    expect(description).toMatchObject({ kind: "masked", mask: expect.stringMatching(/^SBP \*\d{4}$/) });
    expect(describeTestMethod({ ref: "pm_sbp_2", method: "sbp" })).not.toEqual(description);
  });
});

describe("sandboxMethodFingerprint", () => {
  it("is the sha256 hex of the ref, not the ref", () => {
    expect(sandboxMethodFingerprint("pm_test_123")).toMatch(/^[0-9a-f]{64}$/);
    expect(sandboxMethodFingerprint("pm_test_123")).not.toContain("pm_test_123");
  });
});
