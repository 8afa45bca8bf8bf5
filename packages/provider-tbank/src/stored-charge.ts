import type { StoredMethodCharge } from "@kopek/core";
import { initiatorData } from "./operation-initiator.js";
import { parseBoundAccountRef, parseStoredRef } from "./stored-ref.js";

/** How one stored method is charged: the `Init` fields it needs, then the call that pays the payment. */
export interface StoredChargeCall {
  /** `Init` fields besides the order's own (amount, OrderId, description, receipt). */
  readonly init: Readonly<Record<string, unknown>>;
  /** Keys added to `Init`'s `DATA` besides Kopek's payment id. */
  readonly data: Readonly<Record<string, string>>;
  readonly method: "Charge" | "ChargeQr";
  readonly body: (paymentId: string) => Readonly<Record<string, unknown>>;
  /** What a message must never show. */
  readonly secrets: readonly string[];
}

/**
 * A card is charged with `Init` + `Charge { PaymentId, RebillId }` (developer.tbank.ru/eacq/api/charge);
 * a bound SBP account with `Init { Recurrent: "Y", DATA: { QR: "true" } }` + `ChargeQr { PaymentId,
 * AccountToken }` (…/eacq/api/charge-qr and its "автоплатежи по СБП"). `CustomerKey` goes with
 * `Recurrent` as `Init` asks (…/eacq/api/init); the order's id serves, it names no saved card.
 */
export function storedChargeOf(
  request: StoredMethodCharge,
  orderId: string,
): StoredChargeCall | { readonly refused: string } {
  if (request.method === "sbp") {
    const account = parseBoundAccountRef(request.ref);
    if (account === null)
      return { refused: "T-Bank adapter: a stored SBP ref is `q1:<RequestKey>:<AccountToken>`" };
    return {
      init: { Recurrent: "Y", CustomerKey: orderId },
      data: { QR: "true" },
      method: "ChargeQr",
      body: (paymentId) => ({ PaymentId: paymentId, AccountToken: account.accountToken }),
      secrets: [request.ref, account.accountToken],
    };
  }
  const card = request.method === "card" ? parseStoredRef(request.ref) : null;
  if (card === null)
    return { refused: "T-Bank adapter: a stored card ref is `<CustomerKey>:<RebillId>` or a RebillId" };
  return {
    init: {},
    data: initiatorData("renewal"),
    method: "Charge",
    body: (paymentId) => ({ PaymentId: paymentId, RebillId: card.rebillId }),
    secrets: [request.ref, card.rebillId, card.customerKey ?? request.ref],
  };
}
