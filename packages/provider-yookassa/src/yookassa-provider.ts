import type {
  CreatedPayment,
  PaymentMethod,
  PaymentProvider,
  PaymentRequest,
  ProviderCapabilities,
  ProviderError,
  ProviderPayment,
  ProviderRefund,
  Receipt,
  StoredMethodCharge,
} from "@kopek/core";
import { createProviderSend, type ProviderOutboundOptions } from "@kopek/outbound";
import { errAsync, okAsync, type ResultAsync } from "neverthrow";
import { toYooKassaAmount } from "./amount.js";
import { idempotenceKeyOf } from "./idempotence-key.js";
import { createMethodSaves } from "./method-saves.js";
import { readYooKassaNotification } from "./notification.js";
import { findPaymentByKey } from "./payment-lookup.js";
import { providerErrorOf, providerPaymentOf, providerRefundOf } from "./payment-mapping.js";
import { toYooKassaReceipt } from "./receipt-mapping.js";
import { describeSavedMethod, withoutRef } from "./stored-method.js";
import { PAYMENT_DESCRIPTION_MAX, REFUND_DESCRIPTION_MAX, truncate } from "./text-limit.js";
import { createYooKassaClient } from "./yookassa-client.js";
import {
  paymentSchema,
  refundSchema,
  type YooKassaPayment,
  type YooKassaRefund,
} from "./yookassa-schemas.js";

export interface YooKassaProviderOptions extends ProviderOutboundOptions {
  readonly shopId: string;
  /** Never logged and never in an error message. */
  readonly secretKey: string;
  /** Which methods may be charged stored (the acquiring contract). Default `["card"]`. */
  readonly storedMethods?: readonly PaymentMethod[];
  /** Default `https://api.yookassa.ru/v3`; tests point it at the emulator. */
  readonly apiUrl?: string;
  /** Per attempt. Default 10 000. */
  readonly timeoutMs?: number;
  /** 429, 5xx, timeouts and network failures are retried with back-off and the same key. Default 3. */
  readonly maxRetries?: number;
  /** Also check the notification's source address against YooKassa's published ranges (README). */
  readonly checkNotificationIp?: boolean;
  /**
   * Save a payer's new bank card with no payment (`methodSaves`: `POST /payment_methods`, README "A
   * payer's new method"). Only where YooKassa enabled it for the shop. Default false.
   */
  readonly saveWithoutPayment?: boolean;
}

const METHODS: readonly PaymentMethod[] = ["card", "sbp"];
const YOOKASSA_API_URL = "https://api.yookassa.ru/v3";
// yookassa.ru/developers/payment-acceptance/getting-started/payment-process: confirmation_url is on yoomoney.ru.
const YOOKASSA_CHECKOUT_ORIGIN = "https://yoomoney.ru";
const METHOD_TYPES: Readonly<Record<PaymentMethod, string>> = { card: "bank_card", sbp: "sbp" };

/** Kopek's provider port over YooKassa API v3 (README: what it sends, and which docs say so). */
export function createYooKassaProvider(options: YooKassaProviderOptions): PaymentProvider {
  const apiUrl = options.apiUrl ?? YOOKASSA_API_URL;
  const client = createYooKassaClient({
    shopId: options.shopId,
    secretKey: options.secretKey,
    apiUrl,
    timeoutMs: options.timeoutMs ?? 10_000,
    maxRetries: options.maxRetries ?? 3,
    send: createProviderSend(options),
  });
  const storedMethods = (options.storedMethods ?? ["card"]).filter((method) => METHODS.includes(method));
  const capabilities: ProviderCapabilities = {
    methods: METHODS,
    storedMethodCharge: storedMethods,
    // Recurring payments save bank cards and SBP ("there are exceptions": only banks that support
    // autopayments are offered), …/scenario-extensions/recurring-payments and …/manual-integration/other/sbp.
    saveMethod: ["card", "sbp"],
    // YooKassa takes 54-FZ receipts inline: the payment's `receipt` (receipt-mapping.ts).
    receipts: true,
    // YooKassa cancels only waiting_for_capture payments; Kopek asks for capture: true, so never.
    cancelPending: false,
    // confirmation_url points at YooMoney's checkout; an emulator (another apiUrl) serves its own.
    confirmationOrigins: apiUrl === YOOKASSA_API_URL ? [YOOKASSA_CHECKOUT_ORIGIN] : [new URL(apiUrl).origin],
    currencies: ["RUB"],
    // The payer chooses the method on Kopek's page, which then creates the payment (createPayment).
    paymentPage: "kopek",
  };
  const checkIp = options.checkNotificationIp ?? false;
  const refundOrRefusal = (refund: YooKassaRefund): ResultAsync<ProviderRefund, ProviderError> => {
    const mapped = providerRefundOf(refund);
    return mapped === null ? refuse(`YooKassa refund ${refund.id}: unreadable amount`) : okAsync(mapped);
  };

  const refuse = (message: string): ResultAsync<never, ProviderError> =>
    errAsync({ code: "failed", message });
  const currencyRefusal = (currency: string) =>
    capabilities.currencies.includes(currency)
      ? null
      : `YooKassa adapter: ${currency} is not accepted (RUB only)`;

  const getPayment = (providerPaymentId: string) =>
    client
      .call({
        method: "GET",
        path: `/payments/${encodeURIComponent(providerPaymentId)}`,
        schema: paymentSchema,
      })
      .map(providerPaymentOf)
      .mapErr(providerErrorOf);

  // POST /payments, a payer's (createPayment) or a saved method's (chargeStoredMethod).
  const postPayment = (body: object, idempotencyKey: string) =>
    client.call({
      method: "POST",
      path: "/payments",
      schema: paymentSchema,
      body,
      idempotenceKey: idempotenceKeyOf(idempotencyKey),
    });

  function createPayment(request: PaymentRequest): ResultAsync<CreatedPayment, ProviderError> {
    const refused = currencyRefusal(request.money.currency);
    if (refused !== null) return refuse(refused);
    const body = {
      amount: toYooKassaAmount(request.money),
      capture: true,
      confirmation: { type: "redirect", return_url: request.returnUrl },
      payment_method_data: { type: METHOD_TYPES[request.method] },
      // Autopayments: the payer's method is saved with this payment, then charged without them (API.md 10.5).
      ...(request.saveMethod ? { save_payment_method: true } : {}),
      description: truncate(request.description, PAYMENT_DESCRIPTION_MAX),
      metadata: { kopekPaymentId: request.paymentId },
      ...receiptField(request.receipt),
    };
    return postPayment(body, request.idempotencyKey)
      .mapErr(providerErrorOf)
      .andThen((payment: YooKassaPayment) => {
        const confirmationUrl = payment.confirmation?.confirmation_url;
        const answer = providerPaymentOf(payment);
        if (confirmationUrl !== undefined) return okAsync({ ...answer, confirmationUrl });
        if (answer.status !== "pending") return okAsync({ ...answer, confirmationUrl: request.returnUrl });
        return refuse(`YooKassa payment ${payment.id} is pending without a confirmation_url`);
      });
  }

  function chargeStoredMethod(request: StoredMethodCharge): ResultAsync<ProviderPayment, ProviderError> {
    if (!storedMethods.includes(request.method)) {
      return refuse(`YooKassa adapter: stored ${request.method} charges are not enabled (storedMethods)`);
    }
    const refused = currencyRefusal(request.money.currency);
    if (refused !== null) return refuse(refused);
    // No confirmation: a saved method is charged without the payer (…/recurring-payments/pay-with-saved).
    const body = {
      amount: toYooKassaAmount(request.money),
      capture: true,
      payment_method_id: request.ref,
      description: truncate(request.description, PAYMENT_DESCRIPTION_MAX),
      metadata: { kopekPaymentId: request.paymentId },
      // Each renewal registers its receipt again: every charge is a sale of its own (API.md 10.7).
      ...receiptField(request.receipt),
    };
    return (
      postPayment(body, request.idempotencyKey)
        .map(providerPaymentOf)
        // YooKassa's description may quote the payment_method_id; the ref is a token and stays inside Kopek.
        .mapErr((failure) => withoutRef(providerErrorOf(failure), request.ref))
    );
  }

  return {
    capabilities,
    describeStoredMethod: (request) => describeSavedMethod(client, request.ref),
    chargeStoredMethod,
    createPaymentLink: (request) => {
      const refused = currencyRefusal(request.money.currency);
      // Kopek's own page is where the payer pays (capabilities.paymentPage): the link is that page.
      return refused === null ? okAsync({ url: request.hostedPageUrl }) : refuse(refused);
    },
    createPayment,
    getPayment,
    findPaymentByKey: (lookup) => findPaymentByKey(client, lookup),
    cancelPayment: (request) =>
      client
        .call({
          method: "POST",
          path: `/payments/${encodeURIComponent(request.providerPaymentId)}/cancel`,
          schema: paymentSchema,
          body: {},
          idempotenceKey: idempotenceKeyOf(request.idempotencyKey),
        })
        .map(providerPaymentOf)
        .mapErr((failure): ProviderError => {
          const error = providerErrorOf(failure);
          if (failure.kind !== "refused" || failure.status !== 400) return error;
          const why =
            "YooKassa cancels only payments waiting_for_capture; a pending capture: true payment cannot";
          return { code: "failed", message: `${why} be canceled (${error.message})` };
        }),
    refundPayment: (request) => {
      const refused = currencyRefusal(request.money.currency);
      if (refused !== null) return refuse(refused);
      const body = {
        payment_id: request.providerPaymentId,
        amount: toYooKassaAmount(request.money),
        ...(request.reason === null ? {} : { description: truncate(request.reason, REFUND_DESCRIPTION_MAX) }),
        // A partial refund of a payment sent with a receipt carries the refund's receipt; a full refund
        // none: YooKassa takes the payment's (yookassa.ru/developers/payment-acceptance/receipts/54fz/yoomoney/refunds).
        ...receiptField(request.receipt ?? null),
      };
      return client
        .call({
          method: "POST",
          path: "/refunds",
          schema: refundSchema,
          body,
          idempotenceKey: idempotenceKeyOf(request.idempotencyKey),
        })
        .mapErr(providerErrorOf)
        .andThen(refundOrRefusal);
    },
    getRefund: (providerRefundId) =>
      client
        .call({
          method: "GET",
          path: `/refunds/${encodeURIComponent(providerRefundId)}`,
          schema: refundSchema,
        })
        .mapErr(providerErrorOf)
        .andThen(refundOrRefusal),
    ...(options.saveWithoutPayment === true ? { methodSaves: createMethodSaves(client, storedMethods) } : {}),
    readNotification: (notification) => readYooKassaNotification(notification, checkIp),
    // yookassa.ru/developers/using-api/webhooks: answer HTTP 200 to confirm receipt; YooKassa repeats otherwise.
    notificationAnswer: { status: 200, contentType: "text/plain; charset=utf-8", body: "" },
  };
}

/** The payment request's `receipt` field, or nothing (YooKassa has no use for `receipt: null`). */
function receiptField(receipt: Receipt | null) {
  return receipt === null ? {} : { receipt: toYooKassaReceipt(receipt) };
}
