import type { ProviderError, StoredMethodDescription } from "@kopek/core";
import { errAsync, okAsync, type ResultAsync } from "neverthrow";
import { ASSUMED_CARD_LENGTH, providerErrorOf } from "./payment-mapping.js";
import type { CallFailure, YooKassaClient } from "./yookassa-client.js";
import { savedMethodSchema, type YooKassaSavedMethod } from "./yookassa-schemas.js";

/**
 * What Kopek says of a saved method when YooKassa forbids reading it: no digits, only that it is one.
 * The first charge, which follows at once, is what tells whether YooKassa knows the ref.
 */
export const UNREADABLE_METHOD_MASK = "YooKassa saved method";

/** A YooKassa answer or message about the method, with its ref (a token kept inside Kopek) replaced. */
export function withoutRef(error: ProviderError, ref: string): ProviderError {
  return { ...error, message: error.message.replaceAll(ref, "[method]") };
}

/**
 * Describes a saved method by its own id with `GET /payment_methods/{id}` ("Информация о способе оплаты",
 * yookassa.ru/developers/api; README "Saved methods"). A saved method's `payment_method.id` is its own
 * identifier, not the id of the payment that saved it, so no payment is read. The section is documented
 * "for those who bind with a zero amount": a shop that saved the method during a payment may be refused
 * the call (403 `forbidden`); then the method is described without digits (UNREADABLE_METHOD_MASK). An
 * unknown id (404) is refused.
 */
export function describeSavedMethod(
  client: YooKassaClient,
  ref: string,
): ResultAsync<StoredMethodDescription, ProviderError> {
  return readSavedMethod(client, ref)
    .orElse((failure: CallFailure) => {
      if (failure.kind === "refused" && failure.status === 403) return okAsync(null);
      return errAsync(savedMethodError(failure, ref));
    })
    .andThen((method) =>
      method === null
        ? okAsync<StoredMethodDescription>({ kind: "masked", mask: UNREADABLE_METHOD_MASK })
        : descriptionOf(method),
    );
}

/** `GET /payment_methods/{id}`: a payment method by its own id, as it stands now (SavePaymentMethod). */
export function readSavedMethod(
  client: YooKassaClient,
  ref: string,
): ResultAsync<YooKassaSavedMethod, CallFailure> {
  return client.call({
    method: "GET",
    path: `/payment_methods/${encodeURIComponent(ref)}`,
    schema: savedMethodSchema,
  });
}

/**
 * A failed read of a method as the port's error, the ref taken out of YooKassa's words. 404: YooKassa
 * holds no payment method with this id for the shop — the request's mistake (422), `unknownRef`.
 */
export function savedMethodError(failure: CallFailure, ref: string): ProviderError {
  const error = withoutRef(providerErrorOf(failure), ref);
  return failure.kind === "refused" && failure.status === 404 ? { ...error, unknownRef: true } : error;
}

function descriptionOf(method: YooKassaSavedMethod): ResultAsync<StoredMethodDescription, ProviderError> {
  // Only an active saved method can be charged: pending waits for the payer, inactive was never saved.
  if (!method.saved || (method.status !== undefined && method.status !== "active")) {
    const status = method.status ?? "not saved";
    return errAsync({
      code: "failed",
      message: `YooKassa: that payment method is not saved (${status})`,
      unknownRef: true,
    });
  }
  const card = method.card;
  if (card?.first6 !== undefined && /^[0-9]{6}$/.test(card.first6) && /^[0-9]{4}$/.test(card.last4)) {
    return okAsync({ kind: "card", first6: card.first6, last4: card.last4, length: ASSUMED_CARD_LENGTH });
  }
  return okAsync({ kind: "masked", mask: method.title ?? method.type });
}
