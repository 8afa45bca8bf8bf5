import { YooCheckout } from "@a2seven/yoo-checkout";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startYooKassaEmulator, type YooKassaEmulator } from "./emulator.js";

// The emulator checked by code Kopek did not write: @a2seven/yoo-checkout, a community Node client of
// YooKassa API v3 (axios, Basic auth, Idempotence-Key), over real HTTP. It must read every answer
// without error and the values must come back as sent.
let emulator: YooKassaEmulator;
let checkout: YooCheckout;
beforeAll(async () => {
  emulator = await startYooKassaEmulator();
  checkout = new YooCheckout({ shopId: emulator.shopId, secretKey: emulator.secretKey });
  // The client has no option for its base URL; `root` is where every call goes.
  Object.defineProperty(checkout, "root", { value: emulator.apiUrl });
});
afterAll(() => emulator.close());

const key = () => globalThis.crypto.randomUUID();
const amount = (value: string) => ({ value, currency: "RUB" as const });
const twoStage = (description: string) => ({
  amount: amount("250.00"),
  capture: false,
  confirmation: { type: "redirect" as const, return_url: "https://shop.test/return" },
  payment_method_data: { type: "bank_card" as const },
  description,
  metadata: { order: description },
});

describe("@a2seven/yoo-checkout against the emulator", () => {
  it("creates (idempotently), gets, captures in part and cancels payments", async () => {
    const createKey = key();
    const created = await checkout.createPayment(twoStage("order 1"), createKey);
    expect(created).toMatchObject({
      status: "pending",
      paid: false,
      amount: amount("250.00"),
      description: "order 1",
      metadata: { order: "order 1" },
      recipient: { account_id: emulator.shopId },
      test: true,
    });
    expect(created.confirmation).toMatchObject({ type: "redirect" });
    expect((await checkout.createPayment(twoStage("order 1"), createKey)).id).toBe(created.id);

    emulator.books.decide(created.id, { card: "2200701234561234" });
    const held = await checkout.getPayment(created.id);
    expect(held).toMatchObject({ id: created.id, status: "waiting_for_capture", paid: true });
    expect(held.payment_method).toMatchObject({ type: "bank_card", saved: false, card: { last4: "1234" } });
    expect(held.payment_method.id).not.toBe(created.id);

    const captured = await checkout.capturePayment(created.id, { amount: amount("200.00") }, key());
    expect(captured).toMatchObject({ id: created.id, status: "succeeded", amount: amount("200.00") });

    const other = await checkout.createPayment(twoStage("order 2"), key());
    emulator.books.decide(other.id, { card: "2200701234561234" });
    const canceled = await checkout.cancelPayment(other.id, key());
    expect(canceled).toMatchObject({
      status: "canceled",
      cancellation_details: { party: "merchant", reason: "canceled_by_merchant" },
    });
  });

  it("refunds a captured payment, gets the refund, and lists payments by creation time", async () => {
    const since = new Date(Date.now() - 1_000).toISOString();
    const created = await checkout.createPayment({ ...twoStage("order 3"), capture: true }, key());
    emulator.books.decide(created.id, { card: "2200701234561234" });
    const refund = await checkout.createRefund(
      { payment_id: created.id, amount: amount("100.00"), description: "returned" },
      key(),
    );
    expect(refund).toMatchObject({ payment_id: created.id, status: "succeeded", amount: amount("100.00") });
    expect(await checkout.getRefund(refund.id)).toEqual(refund);
    expect((await checkout.getPayment(created.id)).refunded_amount).toEqual(amount("100.00"));

    const list = await checkout.getPaymentList({ created_at: { value: since, mode: "gte" }, limit: 100 });
    expect(list.type).toBe("list");
    expect(list.items.map((payment) => payment.id)).toContain(created.id);
  });

  it("gets YooKassa's error body for a refused request", async () => {
    const refused = await checkout.createPayment({ ...twoStage("bad"), amount: amount("1.001") }, key()).then(
      () => null,
      (error: unknown) => error as { response?: { status: number; data: unknown } },
    );
    expect(refused?.response?.status).toBe(400);
    expect(refused?.response?.data).toMatchObject({
      type: "error",
      code: "invalid_request",
      parameter: "amount.value",
    });
  });
});
