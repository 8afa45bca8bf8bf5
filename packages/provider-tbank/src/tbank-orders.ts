import type {
  CreatedPayment,
  PaymentRequest,
  ProviderError,
  ProviderPayment,
  StoredMethodCharge,
} from "@kopek/core";
import { errAsync, okAsync, ResultAsync } from "neverthrow";
import { initiatorData } from "./operation-initiator.js";
import { orderIdOf, savingOrderIdOf } from "./order-id.js";
import { isFailedStatus, providerErrorOf, providerPaymentOf } from "./payment-mapping.js";
import { moneyFields, type ReceiptField } from "./receipt-mapping.js";
import { redirectDueDateOf } from "./redirect-due-date.js";
import { createBoundedMap, createSingleFlight } from "./single-flight.js";
import { type StoredChargeCall, storedChargeOf } from "./stored-charge.js";
import type { TBankClient } from "./tbank-client.js";
import {
  checkOrderSchema,
  initSchema,
  qrSchema,
  stateSchema,
  type TBankOrderPayment,
  type TBankState,
} from "./tbank-schemas.js";

// developer.tbank.ru/eacq/api/init: Description holds at most 140 characters.
const DESCRIPTION_MAX = 140;
const PAYMENT_ID_MAX = 20;

const refuse = (message: string): ResultAsync<never, ProviderError> => errAsync({ code: "failed", message });

/**
 * Payments made by `Init`, with Kopek's idempotency key mapped onto `OrderId`: before making anything,
 * `CheckOrder` asks what the order already holds, so a retry after an unknown outcome finds the payment
 * made the first time instead of making a second one (README, "Idempotency").
 */
export function createTBankOrders(client: TBankClient) {
  const once = createSingleFlight();
  // T-Bank tells a PaymentURL only in Init's answer; a retry in this process answers it again from here.
  const confirmationUrls = createBoundedMap<string>(10_000);

  const findOrder = (orderId: string): ResultAsync<TBankOrderPayment | null, ProviderError> =>
    client
      .call("CheckOrder", { OrderId: orderId }, checkOrderSchema)
      .map((order) => paymentOfOrder(order.Payments))
      // The documentation does not say how CheckOrder answers an order it never saw; a refusal (T-Bank
      // answered, so nothing is unknown) is read as "no payment yet". An outage stays an outage.
      .orElse((failure) => (failure.kind === "refused" ? okAsync(null) : errAsync(providerErrorOf(failure))));

  // [T] GetState_FULL: a PaymentId of at most 20 characters; a longer one is none T-Bank made.
  const getState = (paymentId: string) =>
    paymentId.length > PAYMENT_ID_MAX
      ? refuse(`T-Bank adapter: ${paymentId.slice(0, 24)}… is not a T-Bank PaymentId`)
      : client.call("GetState", { PaymentId: paymentId }, stateSchema).mapErr(providerErrorOf);

  /** `Init` of a one-stage payment of the order, Kopek's payment id kept in `DATA`, its receipt in `Receipt`. */
  const initOrder = (
    order: { orderId: string; amount: number; description: string; paymentId: string },
    more: Record<string, unknown>,
    data: Readonly<Record<string, string>> = {},
  ) =>
    client
      .call(
        "Init",
        {
          Amount: order.amount,
          OrderId: order.orderId,
          Description: truncate(order.description, DESCRIPTION_MAX),
          PayType: "O",
          ...more,
          DATA: { ...data, KopekPaymentId: order.paymentId },
        },
        initSchema,
        // Never repeated blindly: a repeat would leave the first payment in the order, NEW and orphaned.
        "once",
      )
      .mapErr(providerErrorOf);

  function init(request: PaymentRequest, orderId: string, amount: number, receipt: ReceiptField) {
    const order = { orderId, amount, description: request.description, paymentId: request.paymentId };
    return initOrder(
      order,
      {
        SuccessURL: request.returnUrl,
        FailURL: request.returnUrl,
        NotificationURL: request.notificationUrl,
        // developer.tbank.ru/eacq/api/init: Recurrent=Y with a CustomerKey saves the card the payer pays
        // with; the saving order's OrderId is its CustomerKey, so getPayment finds the card (saved-cards.ts).
        ...(request.saveMethod ? { Recurrent: "Y", CustomerKey: orderId } : {}),
        ...redirectDueDateOf(request.expiresAt),
        ...receipt,
      },
      initiatorData(request.saveMethod ? "saving" : "oneOff"),
    )
      .andThen((created) => {
        if (request.method === "sbp") {
          // developer.tbank.ru/eacq/api/get-qr: after Init, PAYLOAD answers the SBP payment link.
          return client
            .call("GetQr", { PaymentId: created.PaymentId, DataType: "PAYLOAD" }, qrSchema)
            .mapErr(providerErrorOf)
            .map((qr) => ({ created, url: qr.Data }));
        }
        if (created.PaymentURL === undefined)
          return refuse(`T-Bank payment ${created.PaymentId}: Init answered no PaymentURL`);
        return okAsync({ created, url: created.PaymentURL });
      })
      .map(({ created, url }): CreatedPayment => {
        confirmationUrls.set(created.PaymentId, url);
        return {
          ...providerPaymentOf(created.PaymentId, created.Status, created.Amount),
          confirmationUrl: url,
        };
      });
  }

  function createPayment(request: PaymentRequest): ResultAsync<CreatedPayment, ProviderError> {
    const checked = moneyFields(request.money, request.receipt);
    if ("refused" in checked) return refuse(checked.refused);
    const { amount, receipt } = checked;
    // SBP is saved by binding an account (sbp-saving.ts), not by Init.
    if (request.saveMethod && request.method !== "card")
      return refuse(`T-Bank adapter: only a card is saved with a payment, not ${request.method}`);
    const orderId = request.saveMethod
      ? savingOrderIdOf(request.idempotencyKey)
      : orderIdOf(request.idempotencyKey);
    const decide = (
      existing: TBankOrderPayment | null,
      again: boolean,
    ): ResultAsync<CreatedPayment, ProviderError> => {
      if (existing === null) {
        // A refused Init may be T-Bank refusing a second live payment of the order that a parallel
        // process (or a retry whose first answer was lost) made meanwhile: look once more.
        const made = init(request, orderId, amount, receipt);
        // A refused Init, or one whose answer was lost (Init is sent once), may have left a payment in the
        // order: look once more, and go on with it (a NEW one without its URL is canceled and made again).
        return again
          ? made.orElse((error) =>
              findOrder(orderId).andThen((found) =>
                found === null ? errAsync(error) : decide(found, false),
              ),
            )
          : made;
      }
      if (existing.Amount !== undefined && existing.Amount !== amount)
        return refuse(`T-Bank order ${orderId} was made for another amount with the same idempotency key`);
      const payment = providerPaymentOf(existing.PaymentId, existing.Status, existing.Amount);
      const url = confirmationUrls.get(existing.PaymentId);
      if (url !== undefined) return okAsync({ ...payment, confirmationUrl: url });
      // Init's answer was lost, so no payer holds this NEW payment's URL and none can pay it: cancel it
      // and make the order's payment again, which answers a URL (README, "Idempotency").
      if (existing.Status === "NEW") {
        return client
          .call("Cancel", { PaymentId: existing.PaymentId }, stateSchema)
          .mapErr(providerErrorOf)
          .andThen(() => init(request, orderId, amount, receipt));
      }
      // The payer is at it or done: Kopek's return page tells the outcome.
      return okAsync({ ...payment, confirmationUrl: request.returnUrl });
    };
    const flow = () => findOrder(orderId).andThen((existing) => decide(existing, true));
    return new ResultAsync(once(`payment:${orderId}`, async () => await flow()));
  }

  const answerOf = (state: TBankState) => providerPaymentOf(state.PaymentId, state.Status, state.Amount);

  /** Pays an order's NEW payment made by Init: Charge (a card's RebillId) or ChargeQr (an account's AccountToken). */
  const payStored = (
    paymentId: string,
    call: Pick<StoredChargeCall, "method" | "body">,
  ): ResultAsync<ProviderPayment, ProviderError> =>
    client
      .call(call.method, call.body(paymentId), stateSchema)
      .map(answerOf)
      .orElse((failure) => {
        if (failure.kind === "unavailable") return errAsync(providerErrorOf(failure));
        // A decline is Success: false with the payment's Status (REJECTED); anything else — the payment
        // was charged by an earlier try whose answer was lost — is told by GetState.
        const status = failure.answer.Status;
        // A refusal's answer carries no Amount: a decline needs none; a success is asked for by GetState.
        if (status !== undefined && status !== "NEW")
          return okAsync(providerPaymentOf(paymentId, status, undefined));
        return getState(paymentId).andThen((state) =>
          state.Status === "NEW" ? errAsync(providerErrorOf(failure)) : okAsync(answerOf(state)),
        );
      });

  function chargeStoredMethod(request: StoredMethodCharge): ResultAsync<ProviderPayment, ProviderError> {
    // Each charge registers its receipt again: every renewal is a sale of its own (API.md 10.7).
    const checked = moneyFields(request.money, request.receipt);
    if ("refused" in checked) return refuse(checked.refused);
    const { amount, receipt } = checked;
    const orderId = orderIdOf(request.idempotencyKey);
    const stored = storedChargeOf(request, orderId);
    if ("refused" in stored) return refuse(stored.refused);
    const hide = (error: ProviderError): ProviderError => ({
      ...error,
      message: stored.secrets.reduce((text, secret) => text.replaceAll(secret, "[method]"), error.message),
    });
    const charge = (paymentId: string) => payStored(paymentId, stored);

    const flow = (): ResultAsync<ProviderPayment, ProviderError> =>
      findOrder(orderId).andThen((existing) => {
        if (existing !== null && existing.Amount !== undefined && existing.Amount !== amount)
          return refuse(`T-Bank order ${orderId} was made for another amount with the same idempotency key`);
        if (existing !== null && existing.Status !== "NEW") return getState(existing.PaymentId).map(answerOf);
        if (existing !== null) return charge(existing.PaymentId);
        return initOrder(
          { orderId, amount, description: request.description, paymentId: request.paymentId },
          { ...stored.init, ...receipt },
          stored.data,
        )
          .map((created) => ({ charged: false, paymentId: created.PaymentId }))
          .orElse((error) =>
            // Init refused or its answer lost: a parallel process or the lost answer may have made the
            // order's payment; if so, go on with it.
            findOrder(orderId).andThen((found) =>
              found === null
                ? errAsync(error)
                : okAsync({ charged: found.Status !== "NEW", paymentId: found.PaymentId }),
            ),
          )
          .andThen((step) =>
            step.charged ? getState(step.paymentId).map(answerOf) : charge(step.paymentId),
          );
      });
    return new ResultAsync(once(`charge:${orderId}`, async () => await flow())).mapErr(hide);
  }

  return { createPayment, chargeStoredMethod, getState, findOrder, initOrder, payStored };
}

/**
 * The payment of an order that tells its outcome: one order may hold several (developer.tbank.ru/eacq/api/check-order),
 * an earlier one failed and a later one made again; the last one that has not failed, else the last.
 */
export function paymentOfOrder(payments: readonly TBankOrderPayment[]): TBankOrderPayment | null {
  const live = payments.filter((payment) => !isFailedStatus(payment.Status));
  return live.at(-1) ?? payments.at(-1) ?? null;
}

/** At most `max` characters, counted as code points. */
export function truncate(text: string, max: number): string {
  const characters = Array.from(text);
  return characters.length <= max ? text : characters.slice(0, max).join("");
}
