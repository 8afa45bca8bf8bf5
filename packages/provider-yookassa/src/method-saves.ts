import type {
  MethodSaveRequest,
  MethodSaveState,
  MethodSaves,
  PaymentMethod,
  ProviderError,
  StartedMethodSave,
} from "@kopek/core";
import { errAsync, okAsync, type ResultAsync } from "neverthrow";
import { idempotenceKeyOf } from "./idempotence-key.js";
import { cardMaskOf, providerErrorOf } from "./payment-mapping.js";
import { readSavedMethod, savedMethodError, withoutRef } from "./stored-method.js";
import type { YooKassaClient } from "./yookassa-client.js";
import { savedMethodSchema, type YooKassaSavedMethod } from "./yookassa-schemas.js";

// "Привязка банковской карты на нулевую сумму" with the card entered on YooKassa's page
// (yookassa.ru/developers/payment-acceptance/scenario-extensions/recurring-payments/save-payment-method/save-without-payment/bank-card;
// API reference "Создание способа оплаты", POST /payment_methods): Kopek creates the payment method, the
// payer enters the card at `confirmation_url`, and the method's own id is what later charges send as
// `payment_method_id`. Bank cards only: the SBP binding needs another confirmation (README).

/** The port's methods YooKassa saves with no payment: bank cards (SavePaymentMethodType `bank_card`). */
const SAVABLE: readonly PaymentMethod[] = ["card"];

/**
 * `PaymentProvider.methodSaves` over `POST /payment_methods` and `GET /payment_methods/{id}`: only the
 * methods that are also charged stored (`storedMethods`), since a saved card nobody may charge is no use.
 */
export function createMethodSaves(
  client: YooKassaClient,
  storedMethods: readonly PaymentMethod[],
): MethodSaves {
  const methods = SAVABLE.filter((method) => storedMethods.includes(method));

  function start(request: MethodSaveRequest): ResultAsync<StartedMethodSave, ProviderError> {
    if (!methods.includes(request.method)) {
      return errAsync({
        code: "failed",
        message: `YooKassa adapter: ${request.method} is not saved without a payment (bank cards charged stored only)`,
      });
    }
    // SavePaymentMethodDataBankCard with no `card`: the payer enters it on YooKassa's page. `metadata`
    // comes back in the method object ("при необходимости передайте объект metadata").
    const body = {
      type: "bank_card",
      confirmation: { type: "redirect", return_url: request.returnUrl },
      metadata: { kopekSaveId: request.saveId },
    };
    return client
      .call({
        method: "POST",
        path: "/payment_methods",
        schema: savedMethodSchema,
        body,
        idempotenceKey: idempotenceKeyOf(request.idempotencyKey),
      })
      .mapErr(providerErrorOf)
      .andThen((method): ResultAsync<StartedMethodSave, ProviderError> => {
        const confirmationUrl = method.confirmation?.confirmation_url;
        if (confirmationUrl !== undefined) return okAsync({ saveRef: method.id, confirmationUrl });
        // A repeat (same key) after the payer decided answers the method as it stands, with no
        // confirmation left: the payer goes straight back, where Kopek reads the outcome (`get`).
        if (method.status === "active" || method.status === "inactive") {
          return okAsync({ saveRef: method.id, confirmationUrl: request.returnUrl });
        }
        const status = method.status ?? "no status";
        return errAsync({
          code: "failed",
          message: `YooKassa answered a payment method (${status}) without a confirmation_url`,
        });
      });
  }

  function get(saveRef: string): ResultAsync<MethodSaveState, ProviderError> {
    return readSavedMethod(client, saveRef)
      .mapErr((failure) => savedMethodError(failure, saveRef))
      .andThen((method) => stateOf(method, saveRef));
  }

  return { methods, start, get };
}

/**
 * The save as the method object tells it (PaymentMethodStatus): `pending` waits for the payer; `active`
 * with `saved: true` is saved and chargeable; `inactive` (`saved: false`) was not saved — the payer did
 * not confirm, or the card failed YooKassa's check — and stays so. Anything else is an answer the
 * adapter cannot read: `unavailable`, asked again later, never taken as an outcome.
 */
function stateOf(method: YooKassaSavedMethod, saveRef: string): ResultAsync<MethodSaveState, ProviderError> {
  if (method.status === "active" && method.saved) {
    return okAsync({ status: "saved", savedMethod: { ref: method.id, methodMask: cardMaskOf(method.card) } });
  }
  if (method.status === "pending") return okAsync({ status: "pending" });
  if (method.status === "inactive" || (method.status === "active" && !method.saved)) {
    return okAsync({ status: "failed" });
  }
  const status = method.status ?? "no status";
  const error: ProviderError = {
    code: "unavailable",
    message: `YooKassa payment method ${saveRef}: unreadable status ${status}`,
  };
  return errAsync(withoutRef(error, saveRef));
}
