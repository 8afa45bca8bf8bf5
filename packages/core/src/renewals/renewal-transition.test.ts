// @kopek/testing's fixtures by path: that package depends on core, so core cannot depend on it.

import { describe, expect, it } from "vitest";
import { sampleSubscription } from "../../../testing/src/fixtures.js";
import { cycleOfPeriod, periodOfCycle, renewalChargeKey } from "./renewal-transition.js";

describe("cycle numbers", () => {
  it("counts cycles from 1 and the schedule's periods from 0, one the other's inverse", () => {
    expect(periodOfCycle(1)).toBe(0);
    expect(cycleOfPeriod(0)).toBe(1);
    for (const cycle of [1, 2, 13, 1_000]) expect(cycleOfPeriod(periodOfCycle(cycle))).toBe(cycle);
  });

  it("keeps a renewal's provider key as earlier releases wrote it: an attempt in flight across an upgrade sends the same key", () => {
    const subscription = sampleSubscription("0192f3c4-0000-7000-8000-000000000001", {
      id: "0192f3c4-0000-7000-8000-00000000000a",
    });
    // The keys the previous release sent for cycle 2 (the first renewal) and cycle 13, written by hand:
    // its worker took the number from the pending Payment as `payment.cycle - 1`.
    expect(renewalChargeKey(subscription, 2)).toBe("kopek:renewal:0192f3c4-0000-7000-8000-00000000000a:1:0");
    expect(renewalChargeKey({ ...subscription, declines: 2 }, 13)).toBe(
      "kopek:renewal:0192f3c4-0000-7000-8000-00000000000a:12:2",
    );
  });
});
