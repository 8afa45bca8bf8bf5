import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startYooKassaEmulator, type YooKassaEmulator } from "./emulator.js";
import { rawApi } from "./emulator-raw.js";
import { startNotificationSink } from "./harness.js";

// The emulator's POST /payment_methods and GET /payment_methods/{id} against YooKassa's documentation:
// the bank-card zero-amount page's example request and answers
// (…/save-payment-method/save-without-payment/bank-card) and the OpenAPI schemas SavePaymentMethodData,
// PaymentMethodsConfirmationDataRedirect, SavePaymentMethod (README "Every field").
type Json = Record<string, unknown>;
let emulator: YooKassaEmulator;
beforeAll(async () => {
  emulator = await startYooKassaEmulator({ methodSaves: true });
});
afterAll(() => emulator.close());

const key = () => globalThis.crypto.randomUUID();
const documented = {
  type: "bank_card",
  confirmation: { type: "redirect", return_url: "https://shop.test/r" },
};
const create = async (body: unknown) => {
  const response = await rawApi(emulator).post("/payment_methods", body, key());
  return { status: response.status, body: (await response.json()) as Json };
};
const read = async (id: unknown) =>
  (await (await rawApi(emulator).get(`/payment_methods/${String(id)}`)).json()) as Json;

describe("POST /payment_methods", () => {
  it("answers the documented pending method: its own id, the shop as holder, a confirmation_url", async () => {
    const { status, body } = await create({ ...documented, metadata: { order_id: "37" } });
    expect(status).toBe(200);
    expect(body).toEqual({
      type: "bank_card",
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      saved: false,
      status: "pending",
      holder: { account_id: emulator.shopId, gateway_id: expect.any(String) },
      confirmation: {
        type: "redirect",
        confirmation_url: `${emulator.url}/checkout/payment-methods/${body.id}`,
      },
      metadata: { order_id: "37" },
    });
    expect(await read(body.id)).toEqual(body);
  });

  it("refuses what the schema does not allow, naming the parameter", async () => {
    const cases: [unknown, string][] = [
      [{ confirmation: documented.confirmation }, "type"],
      [{ ...documented, type: "sbp" }, "type"],
      [
        { ...documented, card: { number: "5555555555554477", expiry_year: "2030", expiry_month: "01" } },
        "card",
      ],
      [{ type: "bank_card" }, "confirmation"],
      [
        { ...documented, confirmation: { type: "qr", return_url: "https://shop.test/r" } },
        "confirmation.type",
      ],
      [{ ...documented, confirmation: { type: "redirect" } }, "confirmation.return_url"],
      [
        {
          ...documented,
          confirmation: { type: "redirect", return_url: `https://s.test/${"r".repeat(2034)}` },
        },
        "confirmation.return_url",
      ],
      [
        { ...documented, confirmation: { ...documented.confirmation, locale: "de_DE" } },
        "confirmation.locale",
      ],
      [{ ...documented, holder: { account_id: "100500" } }, "holder.gateway_id"],
      [{ ...documented, metadata: { n: 1 } }, "metadata.n"],
    ];
    for (const [body, parameter] of cases) {
      expect(await create(body)).toMatchObject({ status: 400, body: { code: "invalid_request", parameter } });
    }
    const longest = `https://s.test/${"r".repeat(2033)}`;
    expect(
      (await create({ ...documented, confirmation: { type: "redirect", return_url: longest } })).status,
    ).toBe(200);
  });

  it("is forbidden (403) in a shop without the feature, the default", async () => {
    const shop = await startYooKassaEmulator();
    try {
      const response = await rawApi(shop).post("/payment_methods", documented, key());
      expect(response.status).toBe(403);
      expect(await response.json()).toMatchObject({ type: "error", code: "forbidden" });
      expect(shop.methodSaves.saves.size).toBe(0);
    } finally {
      await shop.close();
    }
  });
});

describe("the method after the payer", () => {
  it("is active and saved with the card, without confirmation, and notified as payment_method.active", async () => {
    const sink = await startNotificationSink();
    emulator.notifyTo(sink.url);
    try {
      const { body } = await create(documented);
      emulator.methodSaves.decide(String(body.id), { card: "5555555555554444" });
      const saved = await read(body.id);
      expect(saved).toMatchObject({ id: body.id, saved: true, status: "active", title: "Bank card *4444" });
      expect(saved.card).toMatchObject({ first6: "555555", last4: "4444", card_type: expect.any(String) });
      expect(saved.confirmation).toBeUndefined();
      await emulator.deliveries();
      const events = sink.received.map((r) => JSON.parse(r.body) as Json);
      expect(events).toContainEqual({ type: "notification", event: "payment_method.active", object: saved });
    } finally {
      emulator.notifyTo(null);
      await sink.close();
    }
  });

  it("is inactive and not saved when declined, and a decided method is not decided again", async () => {
    const { body } = await create(documented);
    expect(emulator.methodSaves.decide(String(body.id), "decline")).toMatchObject({ status: "inactive" });
    expect(emulator.methodSaves.decide(String(body.id), { card: "5555555555554477" })).toBeNull();
    expect(await read(body.id)).toMatchObject({ saved: false, status: "inactive" });
    const page = await (await fetch(`${emulator.url}/checkout/payment-methods/${String(body.id)}`)).text();
    expect(page).toContain("This payment method is inactive.");
    expect(page).not.toContain("Save card");
  });

  it("answers a repeated request with the same key as the method stands now", async () => {
    const same = key();
    const first = (await (await rawApi(emulator).post("/payment_methods", documented, same)).json()) as Json;
    emulator.methodSaves.decide(String(first.id), { card: "5555555555554477" });
    const repeat = (await (await rawApi(emulator).post("/payment_methods", documented, same)).json()) as Json;
    expect(repeat).toMatchObject({ id: first.id, status: "active", saved: true });
    const other = await rawApi(emulator).post("/payment_methods", { ...documented, metadata: {} }, same);
    expect(await other.json()).toMatchObject({ code: "invalid_request", parameter: "Idempotence-Key" });
  });

  it("has a page that takes no form it does not know, and none for an unknown id", async () => {
    const { body } = await create(documented);
    const url = String((body.confirmation as Json).confirmation_url);
    const post = (form: Record<string, string>) =>
      fetch(url, { method: "POST", body: new URLSearchParams(form) });
    expect((await post({ outcome: "save", card: "1234" })).status).toBe(400);
    expect((await post({ outcome: "pay", card: "5555555555554477" })).status).toBe(400);
    expect((await fetch(`${emulator.url}/checkout/payment-methods/nope`)).status).toBe(404);
    expect(await read(body.id)).toMatchObject({ status: "pending" });
  });
});
