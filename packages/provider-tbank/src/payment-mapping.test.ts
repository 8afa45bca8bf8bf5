import { describe, expect, it } from "vitest";
import { cardOfPan, providerErrorOf, providerPaymentOf, statusOf } from "./payment-mapping.js";

describe("T-Bank statuses", () => {
  it.each([
    ["NEW", "pending", null],
    ["FORM_SHOWED", "pending", null],
    ["AUTHORIZING", "pending", null],
    ["AUTHORIZED", "pending", null],
    ["CONFIRMING", "pending", null],
    ["CONFIRMED", "succeeded", null],
    ["PARTIAL_REFUNDED", "succeeded", null],
    ["REFUNDED", "succeeded", null],
    ["REJECTED", "canceled", "payment_declined"],
    ["AUTH_FAIL", "canceled", "payment_declined"],
    ["DEADLINE_EXPIRED", "canceled", "expired"],
    ["CANCELED", "canceled", "expired"],
    ["REVERSED", "canceled", "provider_error"],
    ["SOMETHING_NEW", "pending", null],
  ])("%s is %s (%s)", (status, kopek, failure) => {
    expect(providerPaymentOf("1", status, 149900)).toEqual({
      providerPaymentId: "1",
      status: kopek,
      failureCode: failure,
      methodMask: null,
      savedMethod: null,
      money: { amount: "149900", currency: "RUB" },
    });
    expect(providerPaymentOf("1", status, undefined).money).toBeNull();
    expect(statusOf(status)).toBe(kopek);
  });
});

describe("Pan", () => {
  it("tells the first six, the last four and the length", () => {
    expect(cardOfPan("430000******0777")).toEqual({ first6: "430000", last4: "0777", length: 16 });
    expect(cardOfPan("220000*********1234")).toEqual({ first6: "220000", last4: "1234", length: 19 });
    expect(cardOfPan("+7 (9**) ***-**-12")).toBeNull();
  });
});

describe("errors", () => {
  it("name T-Bank's ErrorCode and message as failed", () => {
    const error = providerErrorOf({
      kind: "refused",
      answer: { Success: false, ErrorCode: "204", Message: "Неверный токен" },
      raw: null,
    });
    expect(error).toEqual({ code: "failed", message: "T-Bank ErrorCode 204 (Неверный токен)" });
  });
});
