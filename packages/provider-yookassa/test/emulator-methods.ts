import { randomUUID } from "node:crypto";

// Payment methods as YooKassa's API reference describes them (OpenAPI specification of
// yookassa.ru/developers/api, schemas PaymentMethod, BankCardData, SavePaymentMethod, PaymentMethodStatus;
// README "Fields"): a method has an id of its own, never the id of the payment that used or saved it.

export type Json = Record<string, unknown>;

/** `payment_method.status`: pending (waits for the payer), active (saved, chargeable), inactive (not saved). */
export type MethodStatus = "pending" | "active" | "inactive";

/** A fresh method id, as YooKassa gives one to every payment method (`payment_method.id`). */
export const newMethodId = (): string => randomUUID();

/** `card` of a bank card method: first six and last four digits, expiry, card type (BankCardData). */
export function cardOf(number: string): Json {
  return {
    first6: number.slice(0, 6),
    last4: number.slice(-4),
    expiry_month: "12",
    expiry_year: "2030",
    card_type: "MasterCard",
  };
}

/** A payment's `payment_method` (PaymentMethod: type, id, saved, status, title; bank_card adds `card`). */
export function paymentMethod(options: {
  readonly type: string;
  readonly id: string;
  readonly status: MethodStatus;
  readonly card?: string;
}): Json {
  const { type, id, status, card } = options;
  const described =
    card === undefined
      ? type === "sbp"
        ? { title: "SBP" }
        : {}
      : { title: `Bank card *${card.slice(-4)}`, card: cardOf(card) };
  return { type, id, saved: status === "active", status, ...described };
}

/**
 * The saved method object `GET /payment_methods/{id}` answers (SavePaymentMethod): the payment's method
 * with the shop that holds it (`holder`).
 */
export function savedMethodObject(method: Json, shopId: string): Json {
  return { ...method, holder: { account_id: shopId, gateway_id: "100500" } };
}

/**
 * What a payment answers of a saved method it was charged with: the method without what only the saved
 * method object has (`holder`, `confirmation`, `metadata`).
 */
export function chargedWith(saved: Json): Json {
  const { holder: _holder, confirmation: _confirmation, metadata: _metadata, ...method } = saved;
  return method;
}
