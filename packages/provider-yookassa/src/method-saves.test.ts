import { errAsync, okAsync } from "neverthrow";
import { describe, expect, it } from "vitest";
import { createMethodSaves } from "./method-saves.js";
import type { CallFailure, YooKassaClient } from "./yookassa-client.js";

// methodSaves.get's reading of YooKassa's method object (PaymentMethodStatus: pending, active, inactive).
const REF = "22e12f66-000f-5000-8000-18db351245c7";
const answering = (answer: unknown): YooKassaClient => ({ call: () => okAsync(answer) as never });
const get = (answer: unknown) => createMethodSaves(answering(answer), ["card"]).get(REF);
const method = (fields: Record<string, unknown>) => ({ type: "bank_card", id: REF, ...fields });

describe("how a save stands", () => {
  it("is saved when active and saved, with the card's mask (or none without the digits)", async () => {
    const card = {
      first6: "555555",
      last4: "4444",
      expiry_month: "07",
      expiry_year: "2030",
      card_type: "Mir",
    };
    expect((await get(method({ saved: true, status: "active", card })))._unsafeUnwrap()).toEqual({
      status: "saved",
      savedMethod: { ref: REF, methodMask: "5555 55** **** 4444" },
    });
    expect((await get(method({ saved: true, status: "active" })))._unsafeUnwrap()).toEqual({
      status: "saved",
      savedMethod: { ref: REF, methodMask: null },
    });
  });

  it("is pending while the payer has not acted, failed when inactive or active but not saved", async () => {
    expect((await get(method({ saved: false, status: "pending" })))._unsafeUnwrap()).toEqual({
      status: "pending",
    });
    expect((await get(method({ saved: false, status: "inactive" })))._unsafeUnwrap()).toEqual({
      status: "failed",
    });
    expect((await get(method({ saved: false, status: "active" })))._unsafeUnwrap()).toEqual({
      status: "failed",
    });
  });

  it("takes no outcome from a status it does not know: unavailable, without the ref", async () => {
    for (const status of [undefined, "canceled"]) {
      const error = (
        await get(method({ saved: false, ...(status === undefined ? {} : { status }) }))
      )._unsafeUnwrapErr();
      expect(error.code).toBe("unavailable");
      expect(error.message).not.toContain(REF);
    }
  });

  it("is refused when the shop may not read it (403), unlike describing a method", async () => {
    const forbidden: YooKassaClient = {
      call: () =>
        errAsync<never, CallFailure>({
          kind: "refused",
          status: 403,
          error: { type: "error", code: "forbidden" },
        }),
    };
    const error = (await createMethodSaves(forbidden, ["card"]).get(REF))._unsafeUnwrapErr();
    expect(error).toEqual({ code: "failed", message: "YooKassa refused the request: 403 forbidden" });
  });
});

describe("starting a save", () => {
  it("refuses an answer pending without a confirmation_url", async () => {
    const saves = createMethodSaves(answering(method({ saved: false, status: "pending" })), ["card"]);
    const request = {
      saveId: "s",
      method: "card" as const,
      returnUrl: "https://k.test/r",
      idempotencyKey: "k",
    };
    expect((await saves.start(request))._unsafeUnwrapErr()).toMatchObject({
      code: "failed",
      message: /\(pending\) without a confirmation_url/,
    });
  });
});
