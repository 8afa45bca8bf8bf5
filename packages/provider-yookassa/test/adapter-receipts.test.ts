import type { Receipt } from "@kopek/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startYooKassaEmulator, type YooKassaEmulator } from "./emulator.js";
import { paymentRequest, providerFor, randomKey } from "./harness.js";

let emulator: YooKassaEmulator;
beforeAll(async () => {
  emulator = await startYooKassaEmulator();
});
afterAll(() => emulator.close());

/** 1499.01 RUB: 3 × 499.67 and 0.5 × 0.02 (the decimals of a quantity are kept as sent). */
const receipt: Receipt = {
  customer: { email: "buyer@example.com", phone: "+79991234567" },
  taxSystemCode: 2,
  items: [
    {
      description: "Подписка «Про»",
      quantity: "3.000",
      amount: { amount: "49967", currency: "RUB" },
      vatCode: 12,
      paymentSubject: "service",
      paymentMode: "full_prepayment",
    },
    {
      description: "Half a unit",
      quantity: "0.5",
      amount: { amount: "2", currency: "RUB" },
      vatCode: 1,
      paymentSubject: "commodity",
      paymentMode: "full_payment",
    },
  ],
};
/** YooKassa's `receipt`, exactly as its API documents it (api#create_payment). */
const expected = {
  customer: { email: "buyer@example.com", phone: "79991234567" },
  items: [
    {
      description: "Подписка «Про»",
      quantity: "3.000",
      amount: { value: "499.67", currency: "RUB" },
      vat_code: 12,
      payment_subject: "service",
      payment_mode: "full_prepayment",
    },
    {
      description: "Half a unit",
      quantity: "0.5",
      amount: { value: "0.02", currency: "RUB" },
      vat_code: 1,
      payment_subject: "commodity",
      payment_mode: "full_payment",
    },
  ],
  tax_system_code: 2,
};
const money = { amount: "149902", currency: "RUB" };

describe("54-FZ receipts to YooKassa", () => {
  it("sends a payment's receipt mapped exactly: the emulator checks it against YooKassa's rules and keeps it", async () => {
    const provider = providerFor(emulator);
    const created = (await provider.createPayment(paymentRequest({ money, receipt })))._unsafeUnwrap();
    expect(emulator.books.receipts.get(created.providerPaymentId)).toEqual(expected);
    const plain = (await provider.createPayment(paymentRequest({ money })))._unsafeUnwrap();
    expect(emulator.books.receipts.has(plain.providerPaymentId)).toBe(false);
  });

  it("sends it with a saved method's charge too (each renewal registers a receipt of its own)", async () => {
    const provider = providerFor(emulator);
    const onlyEmail: Receipt = {
      ...receipt,
      customer: { email: "buyer@example.com", phone: null },
      taxSystemCode: null,
    };
    const charged = (
      await provider.chargeStoredMethod({
        paymentId: globalThis.crypto.randomUUID(),
        ref: emulator.books.seedSavedMethod(),
        method: "card",
        money,
        description: "Renewal",
        receipt: onlyEmail,
        idempotencyKey: randomKey(),
      })
    )._unsafeUnwrap();
    expect(charged.status).toBe("succeeded");
    const { tax_system_code: _omitted, ...withoutTaxSystem } = expected;
    expect(emulator.books.receipts.get(charged.providerPaymentId)).toEqual({
      ...withoutTaxSystem,
      customer: { email: "buyer@example.com" },
    });
  });

  it("the emulator refuses a receipt whose items do not add up to the payment, as YooKassa does", async () => {
    const provider = providerFor(emulator);
    const refused = await provider.createPayment(
      paymentRequest({ money: { amount: "149903", currency: "RUB" }, receipt }),
    );
    expect(refused._unsafeUnwrapErr()).toMatchObject({ code: "failed" });
    expect(refused._unsafeUnwrapErr().message).toMatch(/receipt\.items/);
  });
});
