import { describe, expect, it } from "vitest";
import { failureCodeOf, methodMaskOf, providerErrorOf, statusOf } from "./payment-mapping.js";
import type { YooKassaPayment } from "./yookassa-schemas.js";

describe("YooKassa to Kopek", () => {
  it("maps every documented cancellation reason to a failure code", () => {
    const expected: Record<string, string> = {
      expired_on_confirmation: "expired",
      expired_on_capture: "expired",
      payment_expired: "expired",
      canceled_by_merchant: "expired",
      permission_revoked: "canceled_by_payer",
      internal_timeout: "provider_error",
    };
    const declines = [
      "3d_secure_failed",
      "call_issuer",
      "card_expired",
      "country_forbidden",
      "fraud_suspected",
      "general_decline",
      "identification_required",
      "insufficient_funds",
      "invalid_card_number",
      "invalid_csc",
      "issuer_unavailable",
      "payment_method_limit_exceeded",
      "payment_method_restricted",
      "a_reason_yookassa_adds_later",
    ];
    for (const [reason, code] of Object.entries(expected)) expect(failureCodeOf(reason)).toBe(code);
    for (const reason of declines) expect(failureCodeOf(reason)).toBe("payment_declined");
  });

  it("treats waiting_for_capture as not final", () => {
    expect(statusOf("waiting_for_capture")).toBe("pending");
    expect(statusOf("succeeded")).toBe("succeeded");
  });

  it("masks a card only when both digit groups are there", () => {
    const payment = (card: { first6?: string; last4: string }): YooKassaPayment => ({
      id: "p",
      status: "succeeded",
      amount: { value: "1.00", currency: "RUB" },
      payment_method: { type: "bank_card", id: "p", saved: false, card },
    });
    expect(methodMaskOf(payment({ first6: "220070", last4: "1234" }))).toBe("2200 70** **** 1234");
    expect(methodMaskOf(payment({ last4: "1234" }))).toBeNull();
  });

  it("writes a 4xx as failed with YooKassa's code, description and parameter; a 401 as bad credentials", () => {
    const refused = (status: number) =>
      providerErrorOf({
        kind: "refused",
        status,
        error: {
          type: "error",
          code: "invalid_request",
          description: "Bad amount",
          parameter: "amount.value",
        },
      });
    expect(refused(400)).toEqual({
      code: "failed",
      message: "YooKassa refused the request: 400 invalid_request: Bad amount (parameter amount.value)",
    });
    expect(refused(401).message).toMatch(/shop id and the secret key/);
  });
});
