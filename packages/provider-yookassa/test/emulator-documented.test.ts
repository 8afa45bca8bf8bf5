import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startYooKassaEmulator, type YooKassaEmulator } from "./emulator.js";
import { CANCELLATION_REASONS } from "./emulator-cancellation.js";
import { rawApi } from "./emulator-raw.js";
import { providerFor } from "./harness.js";

// The emulator against the README's field table (YooKassa's API reference): two-stage payments, who
// cancels and why, methods with ids of their own, and the limits of description and metadata.
type Json = Record<string, unknown>;
let emulator: YooKassaEmulator;
beforeAll(async () => {
  emulator = await startYooKassaEmulator();
});
afterAll(() => emulator.close());

const key = () => globalThis.crypto.randomUUID();
const payment = (extra: Json = {}) => ({
  amount: { value: "10.00", currency: "RUB" },
  capture: true,
  confirmation: { type: "redirect", return_url: "https://shop.test/return" },
  payment_method_data: { type: "bank_card" },
  ...extra,
});
const create = async (extra: Json = {}) => {
  const response = await rawApi(emulator).post("/payments", payment(extra), key());
  return { status: response.status, body: (await response.json()) as Json };
};
const paid = async (extra: Json = {}, card = "5555555555554477") => {
  const { body } = await create(extra);
  emulator.books.decide(String(body.id), { card });
  return (await (await rawApi(emulator).get(`/payments/${String(body.id)}`)).json()) as Json;
};

describe("two-stage payments (capture: false)", () => {
  it("stop at waiting_for_capture, paid, until captured (in part) or canceled by the merchant", async () => {
    const held = await paid({ capture: false });
    expect(held).toMatchObject({ status: "waiting_for_capture", paid: true });
    const capture = (id: unknown, body: Json) =>
      rawApi(emulator).post(`/payments/${String(id)}/capture`, body, key());
    const over = await capture(held.id, { amount: { value: "10.01", currency: "RUB" } });
    expect(await over.json()).toMatchObject({ code: "invalid_request", parameter: "amount" });
    const captured = await (await capture(held.id, { amount: { value: "7.50", currency: "RUB" } })).json();
    expect(captured).toMatchObject({ status: "succeeded", amount: { value: "7.50" } });
    expect((await capture(held.id, {})).status).toBe(400);

    const another = await paid({ capture: false });
    const canceled = await (
      await rawApi(emulator).post(`/payments/${String(another.id)}/cancel`, {}, key())
    ).json();
    expect(canceled).toMatchObject({
      cancellation_details: { party: "merchant", reason: "canceled_by_merchant" },
    });
  });

  it("is never succeeded for the adapter while it waits for capture", async () => {
    const held = await paid({ capture: false });
    const read = (await providerFor(emulator).getPayment(String(held.id)))._unsafeUnwrap();
    expect(read).toMatchObject({ status: "pending", failureCode: null, savedMethod: null });
  });
});

describe("cancellation_details", () => {
  it("names only the documented parties and reasons", async () => {
    const declined = await paid({}, "5555555555550001");
    const expiring = await create();
    emulator.books.expire(String(expiring.body.id));
    const heldTooLong = await paid({ capture: false });
    emulator.books.expire(String(heldTooLong.id));
    const details = [declined.id, expiring.body.id, heldTooLong.id].map(
      (id) => emulator.books.payments.get(String(id))?.cancellation_details,
    );
    expect(details).toEqual([
      { party: "payment_network", reason: "insufficient_funds" },
      { party: "yoo_money", reason: "expired_on_confirmation" },
      { party: "yoo_money", reason: "expired_on_capture" },
    ]);
    for (const payment of emulator.books.payments.values()) {
      const cancellation = payment.cancellation_details as { party: string; reason: string } | undefined;
      if (cancellation === undefined) continue;
      expect(["yoo_money", "payment_network", "merchant"]).toContain(cancellation.party);
      expect(CANCELLATION_REASONS).toContain(cancellation.reason);
    }
  });

  it("takes no undocumented reason from the checkout page's Decline form", async () => {
    const { body } = await create();
    const url = (body.confirmation as { confirmation_url: string }).confirmation_url;
    const decline = (reason: string) =>
      fetch(url, {
        method: "POST",
        body: new URLSearchParams({ outcome: "decline", reason }),
        redirect: "manual",
      });
    expect((await decline("bank_said_no")).status).toBe(400);
    expect((await decline("canceled_by_merchant")).status).toBe(400);
    expect((await decline("call_issuer")).status).toBe(303);
  });
});

describe("payment methods have ids of their own", () => {
  it("saves a method under its own id, which GET /payment_methods/{id} answers, and no payment's id", async () => {
    const saved = await paid({ save_payment_method: true });
    const method = saved.payment_method as Json;
    expect(method).toMatchObject({
      type: "bank_card",
      saved: true,
      status: "active",
      card: { last4: "4477" },
    });
    expect(method.id).not.toBe(saved.id);
    const read = await rawApi(emulator).get(`/payment_methods/${String(method.id)}`);
    expect(await read.json()).toMatchObject({
      id: method.id,
      type: "bank_card",
      saved: true,
      status: "active",
      holder: { account_id: emulator.shopId },
      card: { first6: "555555", last4: "4477" },
    });
    expect((await rawApi(emulator).get(`/payment_methods/${String(saved.id)}`)).status).toBe(404);

    const unsaved = await paid();
    const unsavedMethod = unsaved.payment_method as Json;
    expect(unsavedMethod).toMatchObject({ saved: false, status: "inactive" });
    expect(unsavedMethod.id).not.toBe(unsaved.id);
    expect((await rawApi(emulator).get(`/payment_methods/${String(unsavedMethod.id)}`)).status).toBe(404);
  });
});

describe("limits", () => {
  it("takes a description of 128 UTF-16 units and refuses 129, an emoji counting two", async () => {
    expect((await create({ description: "ж".repeat(128) })).status).toBe(200);
    expect((await create({ description: "🙂".repeat(64) })).status).toBe(200);
    for (const description of ["ж".repeat(129), "🙂".repeat(65)]) {
      const refused = await create({ description });
      expect(refused).toMatchObject({
        status: 400,
        body: { code: "invalid_request", parameter: "description" },
      });
    }
  });

  it("takes a return_url of 2048 characters and refuses a longer one", async () => {
    const url = (length: number) => `https://shop.test/${"r".repeat(length - 18)}`;
    const redirect = (length: number) => ({ confirmation: { type: "redirect", return_url: url(length) } });
    expect((await create(redirect(2048))).status).toBe(200);
    expect((await create(redirect(2049))).body).toMatchObject({ parameter: "confirmation.return_url" });
  });

  it("takes metadata of 16 keys (names ≤ 32, values ≤ 512 or null) and refuses more", async () => {
    const keys = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, "v"]));
    expect((await create({ metadata: { ...keys(15), ["n".repeat(32)]: "x".repeat(512) } })).status).toBe(200);
    expect((await create({ metadata: { empty: null } })).status).toBe(200);
    for (const metadata of [keys(17), { ["n".repeat(33)]: "v" }, { long: "x".repeat(513) }, { n: 1 }]) {
      const refused = await create({ metadata });
      expect(refused.status).toBe(400);
      expect(String(refused.body.parameter)).toMatch(/^metadata/);
    }
  });
});
