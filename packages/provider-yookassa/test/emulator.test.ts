import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startYooKassaEmulator, type YooKassaEmulator } from "./emulator.js";
import { rawApi } from "./emulator-raw.js";

// The emulator itself, through raw HTTP: what the documented API says, independent of the adapter.
let emulator: YooKassaEmulator;
beforeAll(async () => {
  emulator = await startYooKassaEmulator();
});
afterAll(() => emulator.close());

const api = () => rawApi(emulator);
const post = (path: string, body: unknown, key: string | null, authorization?: string) =>
  api().post(path, body, key, authorization);
const payment = (value = "10.00") => ({
  amount: { value, currency: "RUB" },
  capture: true,
  confirmation: { type: "redirect", return_url: "https://shop.test/return" },
});

describe("YooKassa emulator", () => {
  it("answers 401 invalid_credentials with the documented error body", async () => {
    const response = await post("/payments", payment(), "k-401", "Basic bm9wZTpub3Bl");
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ type: "error", code: "invalid_credentials" });
  });

  it("refuses an invalid amount as 400 invalid_request naming the parameter", async () => {
    const response = await post("/payments", payment("10.001"), "k-400");
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      type: "error",
      code: "invalid_request",
      parameter: "amount.value",
    });
  });

  it("requires an Idempotence-Key of at most 64 characters on POST", async () => {
    expect((await post("/payments", payment(), null)).status).toBe(400);
    const long = await post("/payments", payment(), "x".repeat(65));
    expect(await long.json()).toMatchObject({ parameter: "Idempotence-Key" });
  });

  it("answers the same key and body with the same payment, and refuses the key with another body", async () => {
    const first = await (await post("/payments", payment(), "k-same")).json();
    const again = await (await post("/payments", payment(), "k-same")).json();
    expect(again).toEqual(first);
    const other = await post("/payments", payment("11.00"), "k-same");
    expect(other.status).toBe(400);
    expect(await other.json()).toMatchObject({ code: "invalid_request", parameter: "Idempotence-Key" });
  });

  it("serves a TEST checkout page whose form pays the payment and returns the payer", async () => {
    const created = (await (await post("/payments", payment(), "k-page")).json()) as {
      id: string;
      confirmation: { confirmation_url: string };
    };
    const page = await (await fetch(created.confirmation.confirmation_url)).text();
    expect(page).toContain("TEST");
    expect(page).toContain('id="pay"');
    const submitted = await fetch(created.confirmation.confirmation_url, {
      method: "POST",
      body: new URLSearchParams({ outcome: "pay", card: "5555555555554444" }),
      redirect: "manual",
    });
    expect(submitted.status).toBe(303);
    expect(submitted.headers.get("location")).toBe("https://shop.test/return");
    expect(emulator.books.payments.get(created.id)?.status).toBe("succeeded");
  });

  it("answers 404 not_found for an unknown payment", async () => {
    const response = await api().get("/payments/nope");
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ type: "error", code: "not_found" });
  });

  it("cancels only a payment waiting_for_capture, and refunds never beyond what remains", async () => {
    const twoStage = { ...payment("5.00"), capture: false };
    const pending = (await (await post("/payments", twoStage, "k-cancel-1")).json()) as { id: string };
    expect((await post(`/payments/${pending.id}/cancel`, {}, "k-cancel-2")).status).toBe(400);
    emulator.books.decide(pending.id, { card: "5555555555554477" });
    expect(emulator.books.payments.get(pending.id)?.status).toBe("waiting_for_capture");
    const canceled = await (await post(`/payments/${pending.id}/cancel`, {}, "k-cancel-3")).json();
    expect(canceled).toMatchObject({
      status: "canceled",
      cancellation_details: { reason: "canceled_by_merchant" },
    });

    const paid = (await (await post("/payments", payment("5.00"), "k-refund-1")).json()) as { id: string };
    emulator.books.decide(paid.id, { card: "5555555555554477" });
    const refund = (value: string, key: string) =>
      post("/refunds", { payment_id: paid.id, amount: { value, currency: "RUB" } }, key);
    expect((await refund("3.00", "k-refund-2")).status).toBe(200);
    const over = await refund("2.01", "k-refund-3");
    expect(over.status).toBe(400);
    expect(await over.json()).toMatchObject({ code: "invalid_request", parameter: "amount" });
    expect((await refund("2.00", "k-refund-4")).status).toBe(200);
  });
});
