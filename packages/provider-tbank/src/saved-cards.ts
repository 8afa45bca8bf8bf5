import type { ProviderError, ProviderSavedMethod, StoredMethodDescription } from "@kopek/core";
import { errAsync, okAsync, type ResultAsync } from "neverthrow";
import { customerKeyOfOrder } from "./order-id.js";
import { cardOfPan, maskOfPan, providerErrorOf } from "./payment-mapping.js";
import { parseStoredRef, storedRefOf } from "./stored-ref.js";
import type { TBankClient } from "./tbank-client.js";
import { cardListSchema } from "./tbank-schemas.js";

/** A ref that names no method T-Bank holds for this shop: the request's mistake (422), not T-Bank's. */
const unknownRef = (message: string): ResultAsync<never, ProviderError> =>
  errAsync({ code: "failed", message, unknownRef: true });

/**
 * A customer's saved cards, read with `GetCardList { CustomerKey }` (developer.tbank.ru/eacq/api/get-card-list):
 * the verified source of a card's `RebillId` and masked `Pan`. A paid `Init` with `Recurrent=Y` and a
 * `CustomerKey` binds its card to that customer (…/eacq/api/init), so a saving order's card is found here.
 */
export function createSavedCards(client: TBankClient) {
  const cardsOf = (customerKey: string) =>
    client.call("GetCardList", { CustomerKey: customerKey }, cardListSchema);

  function describe(request: { readonly ref: string }): ResultAsync<StoredMethodDescription, ProviderError> {
    const ref = parseStoredRef(request.ref);
    if (ref?.customerKey == null) {
      return unknownRef(
        "T-Bank adapter: a card is described from a `<CustomerKey>:<RebillId>` ref (GetCardList)",
      );
    }
    return cardsOf(ref.customerKey)
      .mapErr((failure) => {
        const error = providerErrorOf(failure);
        return { ...error, message: error.message.replaceAll(request.ref, "[method]") };
      })
      .andThen((cards) => {
        const card = cards.find((entry) => entry.RebillId === ref.rebillId);
        const digits = card === undefined ? null : cardOfPan(card.Pan);
        if (digits === null) return unknownRef("T-Bank: no saved card of that customer has that RebillId");
        return okAsync<StoredMethodDescription>({ kind: "card", ...digits });
      });
  }

  /**
   * The card a paid order saved: for an order made to save (its OrderId is its CustomerKey), the
   * customer's active card with a `RebillId`; null for any other order, or when T-Bank saved none (it
   * answers a refusal for a customer it has no card of). An outage stays an outage: the payment is read again.
   */
  function savedWith(orderId: string | undefined): ResultAsync<ProviderSavedMethod | null, ProviderError> {
    const customerKey = customerKeyOfOrder(orderId);
    if (customerKey === null) return okAsync(null);
    return cardsOf(customerKey)
      .map((cards) => {
        const card = cards.filter((entry) => entry.RebillId !== undefined && entry.Status === "A").at(-1);
        if (card?.RebillId === undefined) return null;
        return { ref: storedRefOf(customerKey, card.RebillId), methodMask: maskOfPan(card.Pan) };
      })
      .orElse((failure) => (failure.kind === "refused" ? okAsync(null) : errAsync(providerErrorOf(failure))));
  }

  return { describe, savedWith };
}
