import type { PaymentRequest, StoredMethodCharge } from "@kopek/core";
import { createTBankProvider, type TBankProviderOptions } from "../src/index.js";
import type { TBankEmulator } from "./emulator.js";

/** The adapter pointed at `emulator`, with fast timeouts so fault tests stay quick. */
export function providerFor(emulator: TBankEmulator, overrides: Partial<TBankProviderOptions> = {}) {
  return createTBankProvider({
    terminalKey: emulator.terminalKey,
    password: emulator.password,
    apiUrl: emulator.apiUrl,
    // The emulator listens on 127.0.0.1: the development opt-in of @kopek/outbound.
    allowLocal: true,
    timeoutMs: 1_000,
    ...overrides,
  });
}

export function paymentRequest(overrides: Partial<PaymentRequest> = {}): PaymentRequest {
  return {
    paymentId: globalThis.crypto.randomUUID(),
    money: { amount: "149900", currency: "RUB" },
    method: "card",
    description: "Kopek test payment",
    returnUrl: "https://pay.kopek.test/pay/return",
    notificationUrl: "https://pay.kopek.test/provider-events/p/tbank",
    receipt: null,
    idempotencyKey: `test-${globalThis.crypto.randomUUID()}`,
    saveMethod: false,
    ...overrides,
  };
}

export const randomKey = () => `test-${globalThis.crypto.randomUUID()}`;

/** An SBP payment of 1000.00 RUB the payer paid: its PaymentId. */
export async function paidSbpPayment(emulator: TBankEmulator, provider = providerFor(emulator)) {
  const created = (
    await provider.createPayment(
      paymentRequest({ method: "sbp", money: { amount: "100000", currency: "RUB" } }),
    )
  )._unsafeUnwrap();
  emulator.books.decide(created.providerPaymentId, { card: "4300000000000777" });
  return created.providerPaymentId;
}

/** A refund of `amount` kopecks of `providerPaymentId`, with a fresh key and id. */
export const refundRequestOf = (providerPaymentId: string, amount: string) => ({
  providerPaymentId,
  money: { amount, currency: "RUB" },
  idempotencyKey: randomKey(),
  refundId: globalThis.crypto.randomUUID(),
  reason: null,
  receipt: null,
});

/** A stored-method charge of `ref` (a card by default): 990.00 RUB, a fresh key, no receipt. */
export function chargeRequest(ref: string, overrides: Partial<StoredMethodCharge> = {}): StoredMethodCharge {
  return {
    paymentId: globalThis.crypto.randomUUID(),
    ref,
    method: "card",
    money: { amount: "99000", currency: "RUB" },
    description: "Renewal",
    receipt: null,
    idempotencyKey: randomKey(),
    ...overrides,
  };
}
