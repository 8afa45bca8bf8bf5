import { errAsync, okAsync } from "neverthrow";
import { describe, expect, it } from "vitest";
import { describeSavedMethod, UNREADABLE_METHOD_MASK } from "./stored-method.js";
import type { CallFailure, YooKassaClient } from "./yookassa-client.js";

// describeStoredMethod's reading of YooKassa's answers to GET /payment_methods/{id}.
const REF = "2ecb3f1a-000f-5000-9000-1a2b3c4d5e6f";

const answering = (answer: unknown): YooKassaClient => ({ call: () => okAsync(answer) as never });
const refusing = (status: number, code: string): YooKassaClient => ({
  call: () =>
    errAsync<never, CallFailure>({
      kind: "refused",
      status,
      error: { type: "error", code, description: `Payment method ${REF} is not available` },
    }),
});

describe("describing a saved method", () => {
  it("describes an active saved card by its digits, any other active method by its title", async () => {
    const card = {
      first6: "220070",
      last4: "1234",
      expiry_month: "12",
      expiry_year: "2030",
      card_type: "Mir",
    };
    const active = { id: REF, saved: true, status: "active" };
    expect(
      (await describeSavedMethod(answering({ ...active, type: "bank_card", card }), REF))._unsafeUnwrap(),
    ).toEqual({ kind: "card", first6: "220070", last4: "1234", length: 16 });
    expect(
      (
        await describeSavedMethod(answering({ ...active, type: "sbp", title: "СБП Т-Банк" }), REF)
      )._unsafeUnwrap(),
    ).toEqual({ kind: "masked", mask: "СБП Т-Банк" });
  });

  it("refuses a method waiting for the payer or never saved", async () => {
    for (const status of ["pending", "inactive"]) {
      const method = { type: "bank_card", id: REF, saved: status === "pending", status };
      const error = (await describeSavedMethod(answering(method), REF))._unsafeUnwrapErr();
      expect(error).toEqual({
        code: "failed",
        message: `YooKassa: that payment method is not saved (${status})`,
        unknownRef: true,
      });
    }
  });

  it("refuses an unknown id (404), without repeating the ref", async () => {
    const error = (await describeSavedMethod(refusing(404, "not_found"), REF))._unsafeUnwrapErr();
    expect(error).toMatchObject({ code: "failed", unknownRef: true });
    expect(error.message).toMatch(/404 not_found/);
    expect(error.message).not.toContain(REF);
  });

  it("describes the method without digits when the shop may not read saved methods (403)", async () => {
    expect((await describeSavedMethod(refusing(403, "forbidden"), REF))._unsafeUnwrap()).toEqual({
      kind: "masked",
      mask: UNREADABLE_METHOD_MASK,
    });
  });
});
