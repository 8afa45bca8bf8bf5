import type { PaymentProvider } from "@kopek/core";
import { describe, expect, it } from "vitest";

/**
 * A provider that saves a payer's method with no payment (API.md 11.5, `PaymentProvider.methodSaves`),
 * and the payer's part at its page: save a method, or give up, at the `confirmationUrl` it answered.
 */
export interface MethodSavesUnderTest {
  readonly provider: () => PaymentProvider;
  decide(confirmationUrl: string, outcome: "saved" | "failed"): Promise<void>;
}

/** The provider contract's part on saves with no payment: what Kopek relies on to put a method on. */
export function describeMethodSavesContract(under: MethodSavesUnderTest): void {
  const start = async (provider: PaymentProvider) => {
    const saves = provider.methodSaves;
    if (saves === undefined) throw new Error("the provider under test saves nothing with no payment");
    const saveId = globalThis.crypto.randomUUID();
    const method = saves.methods[0] ?? "card";
    const started = await saves.start({
      saveId,
      method,
      returnUrl: `https://pay.kopek.test/method/save/${saveId}`,
      idempotencyKey: `kopek:method-save:${saveId}`,
    });
    return { saves, method, ...started._unsafeUnwrap() };
  };

  describe("methodSaves (API.md 11.5)", () => {
    it("saves only methods it saves with a payment and charges stored", () => {
      const { capabilities, methodSaves } = under.provider();
      expect(methodSaves?.methods.length).toBeGreaterThan(0);
      for (const method of methodSaves?.methods ?? []) {
        expect(capabilities.saveMethod).toContain(method);
        expect(capabilities.storedMethodCharge).toContain(method);
      }
    });

    it("starts a save pending until the payer acts, then saved with a method it charges, the same on every ask", async () => {
      const provider = under.provider();
      const { saves, method, saveRef, confirmationUrl } = await start(provider);
      expect(["http:", "https:"]).toContain(new URL(confirmationUrl).protocol);
      expect((await saves.get(saveRef))._unsafeUnwrap()).toEqual({ status: "pending" });
      await under.decide(confirmationUrl, "saved");
      const saved = (await saves.get(saveRef))._unsafeUnwrap();
      if (saved.status !== "saved") throw new Error(`not saved: ${saved.status}`);
      expect((await saves.get(saveRef))._unsafeUnwrap()).toEqual(saved);
      expect(saved.savedMethod.ref).not.toBe("");
      const charged = await provider.chargeStoredMethod({
        paymentId: globalThis.crypto.randomUUID(),
        ref: saved.savedMethod.ref,
        method,
        money: { amount: "149900", currency: provider.capabilities.currencies[0] ?? "RUB" },
        description: "Kopek provider contract: a charge of a method saved with no payment",
        receipt: null,
        idempotencyKey: `contract-${globalThis.crypto.randomUUID()}`,
      });
      expect(charged._unsafeUnwrap().status).toBe("succeeded");
    });

    it("answers failed, for good, when the payer gives up", async () => {
      const { saves, saveRef, confirmationUrl } = await start(under.provider());
      await under.decide(confirmationUrl, "failed");
      expect((await saves.get(saveRef))._unsafeUnwrap()).toEqual({ status: "failed" });
      expect((await saves.get(saveRef))._unsafeUnwrap()).toEqual({ status: "failed" });
    });
  });
}
