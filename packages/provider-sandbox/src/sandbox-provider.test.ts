import { randomUUID } from "node:crypto";
import type { StoredMethodCharge } from "@kopek/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createSandboxLedger } from "./ledger.js";
import { createSandboxProvider } from "./sandbox-provider.js";
import { sandboxMethodFingerprint } from "./test-cards.js";

const chargeOf = (overrides: Partial<StoredMethodCharge> = {}): StoredMethodCharge => ({
  paymentId: randomUUID(),
  ref: "pm_test_123",
  method: "card",
  money: { amount: "149900", currency: "RUB" },
  description: "Pro plan",
  receipt: null,
  idempotencyKey: randomUUID(),
  ...overrides,
});

describe("the sandbox ledger", () => {
  it("holds one charge per distinct key, with the exact amount and a fingerprint instead of the ref", async () => {
    const provider = createSandboxProvider();
    const big = chargeOf({ money: { amount: "999999999999999999", currency: "USD" } });
    await provider.chargeStoredMethod(big);
    await provider.chargeStoredMethod(big);
    await provider.chargeStoredMethod(chargeOf());

    const charges = provider.ledger.charges();
    expect(charges).toHaveLength(2);
    expect(charges[0]?.money).toEqual({ amount: "999999999999999999", currency: "USD" });
    expect(charges[0]?.methodFingerprint).toBe(sandboxMethodFingerprint("pm_test_123"));
    expect(JSON.stringify(charges)).not.toContain("pm_test_123");
    expect(provider.ledger.countCharges({ idempotencyKey: big.idempotencyKey })).toBe(1);
  });

  it("records 50 parallel charges with one key once", async () => {
    const provider = createSandboxProvider();
    const request = chargeOf();
    const results = await Promise.all(Array.from({ length: 50 }, () => provider.chargeStoredMethod(request)));
    expect(new Set(results.map((result) => result._unsafeUnwrap().providerPaymentId)).size).toBe(1);
    expect(provider.ledger.countCharges()).toBe(1);
  });

  it("is shared by the providers it is given to, idempotency included", async () => {
    const ledger = createSandboxLedger();
    const request = chargeOf();
    const first = await createSandboxProvider({ ledger }).chargeStoredMethod(request);
    const second = await createSandboxProvider({ ledger }).chargeStoredMethod(request);
    expect(second._unsafeUnwrap()).toEqual(first._unsafeUnwrap());
    expect(ledger.countCharges()).toBe(1);
  });

  it("stamps charges with the provider's clock", async () => {
    const now = new Date("2026-01-15T10:00:00Z");
    const provider = createSandboxProvider({ clock: { now: () => now } });
    expect((await provider.chargeStoredMethod(chargeOf()))._unsafeUnwrap().status).toBe("succeeded");
    expect(provider.ledger.charges()[0]?.chargedAt).toEqual(now);
  });
});

describe("chargeStoredMethod", () => {
  it("refuses a key reused with another amount, currency or ref, and charges nothing more", async () => {
    const provider = createSandboxProvider();
    const request = chargeOf();
    await provider.chargeStoredMethod(request);
    for (const reused of [
      { ...request, money: { amount: "149901", currency: "RUB" } },
      { ...request, money: { amount: "149900", currency: "EUR" } },
      { ...request, ref: "pm_test_456" },
    ]) {
      const error = (await provider.chargeStoredMethod(reused))._unsafeUnwrapErr();
      expect(error).toEqual({ code: "failed", message: "idempotency key reused with other parameters" });
    }
    expect(provider.ledger.countCharges()).toBe(1);
  });

  it("remembers a decline under its key, but not an outage", async () => {
    const provider = createSandboxProvider();
    const declinedKey = randomUUID();
    const declined = await provider.chargeStoredMethod(
      chargeOf({ ref: "sandbox_decline_1", idempotencyKey: declinedKey }),
    );
    expect(declined._unsafeUnwrap()).toMatchObject({ status: "canceled", failureCode: "payment_declined" });
    const retried = await provider.chargeStoredMethod(
      chargeOf({ ref: "sandbox_decline_1", idempotencyKey: declinedKey }),
    );
    expect(retried._unsafeUnwrap()).toEqual(declined._unsafeUnwrap());
    expect(provider.ledger.countCharges()).toBe(0);

    const outageKey = randomUUID();
    const outage = await provider.chargeStoredMethod(
      chargeOf({ ref: "sandbox_unavailable_1", idempotencyKey: outageKey }),
    );
    expect(outage._unsafeUnwrapErr().code).toBe("unavailable");
    expect((await provider.chargeStoredMethod(chargeOf({ idempotencyKey: outageKey }))).isOk()).toBe(true);
    expect(provider.ledger.countCharges()).toBe(1);
  });

  it("refuses stored-method charges when they are switched off, and unknown currencies", async () => {
    const off = createSandboxProvider({ storedMethodCharge: false });
    expect(off.capabilities.storedMethodCharge).toEqual([]);
    expect((await off.chargeStoredMethod(chargeOf()))._unsafeUnwrapErr().code).toBe("failed");
    const on = createSandboxProvider();
    const yen = chargeOf({ money: { amount: "1000", currency: "JPY" } });
    expect((await on.chargeStoredMethod(yen))._unsafeUnwrapErr().code).toBe("failed");
    expect(off.ledger.countCharges() + on.ledger.countCharges()).toBe(0);
  });

  it("describes and charges any ordinary ref, the same description every time", async () => {
    const provider = createSandboxProvider();
    const ordinaryRef = fc
      .string({ minLength: 1, maxLength: 255 })
      .filter((ref) => !ref.startsWith("sandbox_decline") && !ref.startsWith("sandbox_unavailable"));
    await fc.assert(
      fc.asyncProperty(ordinaryRef, fc.constantFrom("card" as const, "sbp" as const), async (ref, method) => {
        const first = await provider.describeStoredMethod({ ref, method });
        const second = await provider.describeStoredMethod({ ref, method });
        expect(second._unsafeUnwrap()).toEqual(first._unsafeUnwrap());
        expect((await provider.chargeStoredMethod(chargeOf({ ref, method }))).isOk()).toBe(true);
      }),
    );
  });
});

describe("createPaymentLink", () => {
  it("pays on Kopek's hosted page: links to it, the same for the same request, and keeps nothing", async () => {
    const provider = createSandboxProvider();
    expect(provider.capabilities.paymentPage).toBe("kopek");
    const request = {
      invoiceId: "inv_1",
      money: { amount: "250000", currency: "RUB" },
      description: "Order 42",
      methods: ["card", "sbp"] as const,
      expiresAt: new Date("2026-02-01T00:00:00Z"),
      hostedPageUrl: "https://pay.example.com/i/inv_1",
      idempotencyKey: randomUUID(),
    };
    expect((await provider.createPaymentLink(request))._unsafeUnwrap()).toEqual({
      url: request.hostedPageUrl,
    });
    expect((await provider.createPaymentLink(request))._unsafeUnwrap()).toEqual({
      url: request.hostedPageUrl,
    });
    expect(provider.ledger.charges()).toEqual([]);
  });

  it("refuses a currency it does not accept, as for charges", async () => {
    const provider = createSandboxProvider();
    const result = await provider.createPaymentLink({
      invoiceId: "inv_2",
      money: { amount: "100", currency: "GBP" },
      description: "d",
      methods: ["card"],
      expiresAt: new Date(0),
      hostedPageUrl: "https://pay.example.com/i/inv_2",
      idempotencyKey: randomUUID(),
    });
    expect(result._unsafeUnwrapErr()).toMatchObject({ code: "failed" });
  });
});
