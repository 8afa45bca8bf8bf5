import { randomUUID } from "node:crypto";
import type { StoredMethodCharge } from "@kopek/core";
import { describe, expect, it } from "vitest";
import { createSandboxLedger } from "./ledger.js";
import { createSandboxProvider } from "./sandbox-provider.js";
import { declinedAttemptOf } from "./test-cards.js";

const chargeOf = (ref: string, idempotencyKey = randomUUID()): StoredMethodCharge => ({
  paymentId: randomUUID(),
  ref,
  method: "card",
  money: { amount: "149900", currency: "RUB" },
  description: "Pro plan",
  receipt: null,
  idempotencyKey,
});

const outcomes = async (provider: ReturnType<typeof createSandboxProvider>, ref: string, count: number) => {
  const seen: string[] = [];
  for (let i = 0; i < count; i++) {
    const result = await provider.chargeStoredMethod(chargeOf(ref));
    seen.push(result.isErr() ? result.error.code : result.value.status === "succeeded" ? "ok" : "declined");
  }
  return seen;
};

describe("sandbox_decline_charge_<n>_ refs", () => {
  it("decline the n-th charge attempt with the ref and approve every other", async () => {
    const provider = createSandboxProvider();
    expect(await outcomes(provider, "sandbox_decline_charge_3_abc", 5)).toEqual([
      "ok",
      "ok",
      "declined",
      "ok",
      "ok",
    ]);
    expect(provider.ledger.countCharges()).toBe(4);
  });

  it("count per ref, and per ledger: a new ledger starts counting again", async () => {
    const ledger = createSandboxLedger();
    const provider = createSandboxProvider({ ledger });
    expect(await outcomes(provider, "sandbox_decline_charge_1_a", 2)).toEqual(["declined", "ok"]);
    expect(await outcomes(provider, "sandbox_decline_charge_1_b", 1)).toEqual(["declined"]);
    // Another provider on the same books shares the count; other books do not.
    expect(await outcomes(createSandboxProvider({ ledger }), "sandbox_decline_charge_1_a", 1)).toEqual([
      "ok",
    ]);
    expect(await outcomes(createSandboxProvider(), "sandbox_decline_charge_1_a", 1)).toEqual(["declined"]);
  });

  it("do not count a replayed idempotency key: it answers as it did", async () => {
    const provider = createSandboxProvider();
    const ref = "sandbox_decline_charge_2_replay";
    const key = randomUUID();
    const first = await provider.chargeStoredMethod(chargeOf(ref, key));
    const replay = await provider.chargeStoredMethod(chargeOf(ref, key));
    expect(replay._unsafeUnwrap()).toEqual(first._unsafeUnwrap());
    expect((await provider.chargeStoredMethod(chargeOf(ref)))._unsafeUnwrap().status).toBe("canceled");
  });

  it("are recognised only with a positive count and a trailing underscore", () => {
    expect(declinedAttemptOf("sandbox_decline_charge_4_e2e")).toBe(4);
    expect(declinedAttemptOf("sandbox_decline_charge_12_x")).toBe(12);
    expect(declinedAttemptOf("sandbox_decline_charge_0_x")).toBeNull();
    expect(declinedAttemptOf("sandbox_decline_charge_4")).toBeNull();
    expect(declinedAttemptOf("pm_sandbox_decline_charge_4_x")).toBeNull();
  });

  it("a malformed one is an ordinary sandbox_decline ref: always declined", async () => {
    expect(await outcomes(createSandboxProvider(), "sandbox_decline_charge_x_y", 2)).toEqual([
      "declined",
      "declined",
    ]);
  });
});
