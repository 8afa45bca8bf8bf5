import { describe, expect, it } from "vitest";
import { PAYMENT_DESCRIPTION_MAX, truncate } from "./text-limit.js";

describe("truncate to YooKassa's limits", () => {
  it("counts UTF-16 code units, the strictest reading of 128 characters", () => {
    expect(truncate("ж".repeat(300), PAYMENT_DESCRIPTION_MAX)).toBe("ж".repeat(128));
    // An emoji is two units: 64 of them fill the limit, whatever YooKassa counts.
    expect(truncate("🙂".repeat(100), PAYMENT_DESCRIPTION_MAX)).toBe("🙂".repeat(64));
  });

  it("never cuts a character in half, and leaves a short text alone", () => {
    const cut = truncate(`${"a".repeat(127)}🙂tail`, PAYMENT_DESCRIPTION_MAX);
    expect(cut).toBe("a".repeat(127));
    expect(cut.length).toBeLessThanOrEqual(PAYMENT_DESCRIPTION_MAX);
    expect(truncate("Подписка", PAYMENT_DESCRIPTION_MAX)).toBe("Подписка");
  });
});
