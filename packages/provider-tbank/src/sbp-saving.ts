import type { CreatedPayment, PaymentRequest, ProviderError, ProviderPayment } from "@kopek/core";
import { errAsync, okAsync, ResultAsync } from "neverthrow";
import { z } from "zod";
import { initiatorData } from "./operation-initiator.js";
import { bindingOrderIdOf, requestKeyOfOrder } from "./order-id.js";
import { providerErrorOf, providerPaymentOf } from "./payment-mapping.js";
import { moneyFields } from "./receipt-mapping.js";
import { redirectDueDateOf } from "./redirect-due-date.js";
import { type createBoundAccounts, maskOfAccount } from "./sbp-binding.js";
import { createBoundedMap, createSingleFlight } from "./single-flight.js";
import { boundAccountRefOf } from "./stored-ref.js";
import type { TBankClient } from "./tbank-client.js";
import { type createTBankOrders, truncate } from "./tbank-orders.js";
import { answerSchema, requestKeySchema } from "./tbank-schemas.js";

// developer.tbank.ru/eacq/api/add-account-qr: Description (required), DataType PAYLOAD answers `Data`, the
// link to confirm in the payer's bank app, and the binding's `RequestKey`.
const addAccountSchema = answerSchema.extend({ RequestKey: requestKeySchema, Data: z.string().min(1) });

const PREFIX = "b1:";
const refuse = (message: string): ResultAsync<never, ProviderError> => errAsync({ code: "failed", message });

/** The id Kopek keeps for a payment made by binding an SBP account: `b1:<RequestKey>`. */
export const bindingPaymentIdOf = (requestKey: string) => `${PREFIX}${requestKey}`;
export const requestKeyOfPaymentId = (id: string): string | null =>
  id.startsWith(PREFIX) ? id.slice(PREFIX.length) : null;

/**
 * Saving SBP with an invoice's payment (README, "Saving SBP"): the payer binds an account
 * (`AddAccountQr`, no money moves) and the invoice is then paid from it (`Init` with `Recurrent=Y` and
 * `DATA {"QR": "true"}` made with the binding, `ChargeQr` once `GetAddAccountQrState` says ACTIVE —
 * …/eacq/api/charge-qr). The payment's id is `b1:<RequestKey>`, its order `b1-<RequestKey>`, so the
 * binding's notification and the payment's both name it.
 */
export function createSbpSaving(
  client: TBankClient,
  orders: ReturnType<typeof createTBankOrders>,
  accounts: ReturnType<typeof createBoundAccounts>,
) {
  const once = createSingleFlight();
  // A binding cannot be looked up by a key of Kopek's: a retry in this process answers it from here.
  // One whose answer was lost is never shown to a payer, so it is never confirmed and moves no money.
  const made = createBoundedMap<CreatedPayment>(10_000);

  function createPayment(request: PaymentRequest): ResultAsync<CreatedPayment, ProviderError> {
    const checked = moneyFields(request.money, request.receipt);
    if ("refused" in checked) return refuse(checked.refused);
    const { amount, receipt } = checked;
    const earlier = made.get(request.idempotencyKey);
    if (earlier !== undefined) return okAsync(earlier);
    const flow = () =>
      client
        .call(
          "AddAccountQr",
          {
            Description: truncate(request.description, 140),
            DataType: "PAYLOAD",
            ...redirectDueDateOf(request.expiresAt),
          },
          addAccountSchema,
        )
        .mapErr(providerErrorOf)
        .andThen((binding) => {
          const orderId = bindingOrderIdOf(binding.RequestKey);
          if (orderId === null)
            return refuse("T-Bank: AddAccountQr answered a RequestKey that is neither a number nor a UUID");
          const order = { orderId, amount, description: request.description, paymentId: request.paymentId };
          const more = {
            Recurrent: "Y",
            CustomerKey: orderId,
            NotificationURL: request.notificationUrl,
            ...receipt,
          };
          return orders
            .initOrder(order, more, { QR: "true", ...initiatorData("saving") })
            .map((): CreatedPayment => {
              const created = {
                ...providerPaymentOf(bindingPaymentIdOf(requestKeyOfOrder(orderId) ?? ""), "NEW", amount),
                confirmationUrl: binding.Data,
              };
              made.set(request.idempotencyKey, created);
              return created;
            });
        });
    return new ResultAsync(once(`binding:${request.idempotencyKey}`, async () => await flow()));
  }

  /**
   * How a binding's payment stands: its order's payment as `CheckOrder` finds it; while that is NEW,
   * the binding's state as `GetAddAccountQrState` tells it (never the notification): ACTIVE → `ChargeQr`
   * now (once: a paid payment is no longer NEW), INACTIVE → canceled, otherwise pending.
   */
  function getPayment(id: string): ResultAsync<ProviderPayment, ProviderError> {
    const requestKey = requestKeyOfPaymentId(id);
    const orderId = requestKey === null ? null : bindingOrderIdOf(requestKey);
    if (requestKey === null || orderId === null) return refuse("T-Bank adapter: not a binding payment id");
    const as = (payment: ProviderPayment): ProviderPayment => ({ ...payment, providerPaymentId: id });
    // Parallel asks in this process share one look (and at most one ChargeQr); across processes T-Bank
    // refuses to charge a payment that is no longer NEW, and payStored reads the outcome instead.
    const flow = () =>
      accounts.stateOf(requestKey).andThen((binding) =>
        orders.findOrder(orderId).andThen((order) => {
          if (order === null) return refuse(`T-Bank: no payment of order ${orderId}`);
          const active = binding.Status === "ACTIVE" && binding.AccountToken !== undefined;
          const token = binding.AccountToken ?? "";
          const paid =
            order.Status !== "NEW"
              ? orders
                  .getState(order.PaymentId)
                  .map((state) => providerPaymentOf(state.PaymentId, state.Status, state.Amount))
              : active
                ? orders.payStored(order.PaymentId, {
                    method: "ChargeQr",
                    body: (paymentId) => ({ PaymentId: paymentId, AccountToken: token }),
                  })
                : okAsync(
                    binding.Status === "INACTIVE"
                      ? { ...providerPaymentOf(order.PaymentId, "REJECTED", order.Amount) }
                      : providerPaymentOf(order.PaymentId, "NEW", order.Amount),
                  );
          return paid
            .mapErr((error) => ({
              ...error,
              message: error.message.replaceAll(token || "\u0000", "[method]"),
            }))
            .map((payment) => {
              if (payment.status !== "succeeded" || !active) return as(payment);
              const methodMask = maskOfAccount(binding);
              return as({
                ...payment,
                methodMask,
                savedMethod: { ref: boundAccountRefOf(requestKey, token), methodMask },
              });
            });
        }),
      );
    return new ResultAsync(once(`read:${id}`, async () => await flow()));
  }

  /** The order's T-Bank PaymentId, for cancels and refunds of a binding's payment. */
  const paymentIdOf = (id: string): ResultAsync<string, ProviderError> => {
    const requestKey = requestKeyOfPaymentId(id);
    const orderId = requestKey === null ? null : bindingOrderIdOf(requestKey);
    if (orderId === null) return refuse("T-Bank adapter: not a binding payment id");
    return orders
      .findOrder(orderId)
      .andThen((order) =>
        order === null ? refuse(`T-Bank: no payment of order ${orderId}`) : okAsync(order.PaymentId),
      );
  };

  /** The id of the payment a binding made for this idempotency key in this process, or null. */
  const boundWith = (idempotencyKey: string): string | null =>
    made.get(idempotencyKey)?.providerPaymentId ?? null;

  return { createPayment, getPayment, paymentIdOf, boundWith };
}
