import type {
  PaymentMethod,
  PaymentProvider,
  ProviderCapabilities,
  ProviderError,
  ProviderPayment,
} from "@kopek/core";
import { createProviderSend, type ProviderOutboundOptions } from "@kopek/outbound";
import { errAsync, okAsync, type ResultAsync } from "neverthrow";
import { createCardBinding } from "./card-binding.js";
import { readTBankNotification } from "./notification.js";
import { findPaymentByKey } from "./payment-lookup.js";
import { providerErrorOf, providerPaymentOf } from "./payment-mapping.js";
import { TAX_SYSTEMS_TAKEN } from "./receipt-mapping.js";
import { createSavedCards } from "./saved-cards.js";
import { createBoundAccounts } from "./sbp-binding.js";
import { createSbpSaving, requestKeyOfPaymentId } from "./sbp-saving.js";
import { parseBoundAccountRef } from "./stored-ref.js";
import { createTBankClient } from "./tbank-client.js";
import { createTBankOrders } from "./tbank-orders.js";
import { createTBankRefunds } from "./tbank-refunds.js";
import { cancelSchema } from "./tbank-schemas.js";

export interface TBankProviderOptions extends ProviderOutboundOptions {
  /** The terminal's `TerminalKey`. */
  readonly terminalKey: string;
  /** The terminal's password, which signs every request's `Token`. Never logged, never in a message. */
  readonly password: string;
  /** Which methods may be charged stored (the acquiring contract): `card` (Charge), `sbp` (ChargeQr). Default `["card"]`. */
  readonly storedMethods?: readonly PaymentMethod[];
  /**
   * Save a payer's new card with no payment (`AddCustomer` + `AddCard`, `methodSaves`) when `card` is in
   * `storedMethods`; the terminal's "Success/Fail Add Card URL" must then lead to Kopek (README). Default false.
   */
  readonly saveWithoutPayment?: boolean;
  /** Default `https://securepay.tinkoff.ru/v2`; tests point it at the emulator. */
  readonly apiUrl?: string;
  /** Per attempt. Default 10 000. */
  readonly timeoutMs?: number;
  /** 5xx, 429, timeouts and network failures are retried with back-off. Default 3. */
  readonly maxRetries?: number;
}

const METHODS: readonly PaymentMethod[] = ["card", "sbp"];
export const TBANK_API_URL = "https://securepay.tinkoff.ru/v2";
// PaymentURL is on securepay.tinkoff.ru (…/eacq/api/init); an SBP payload (…/eacq/api/get-qr) is an NSPK link.
const TBANK_CONFIRMATION_ORIGINS = ["https://securepay.tinkoff.ru", "https://qr.nspk.ru"];
// Cancel of a payment nobody paid yet (…/eacq/api/cancel): later statuses are refunds, not cancels.
const CANCELABLE = new Set(["NEW", "FORM_SHOWED"]);

/** Kopek's provider port over T-Bank acquiring API v2 (README: what it sends, and which docs say so). */
export function createTBankProvider(options: TBankProviderOptions): PaymentProvider {
  const apiUrl = options.apiUrl ?? TBANK_API_URL;
  const { terminalKey, password } = options;
  const client = createTBankClient({
    terminalKey,
    password,
    apiUrl,
    timeoutMs: options.timeoutMs ?? 10_000,
    maxRetries: options.maxRetries ?? 3,
    send: createProviderSend(options),
  });
  const orders = createTBankOrders(client);
  const { refundPayment, getRefund } = createTBankRefunds(client, orders);
  const savedCards = createSavedCards(client);
  const boundAccounts = createBoundAccounts(client);
  const sbpSaving = createSbpSaving(client, orders, boundAccounts);
  // A payment made by binding an SBP account is `b1:<RequestKey>` to Kopek: cancels and refunds act on its order's payment.
  const onBinding =
    <R extends { readonly providerPaymentId: string }, T>(
      act: (request: R) => ResultAsync<T, ProviderError>,
      rename: (answer: T, id: string) => T,
    ) =>
    (request: R): ResultAsync<T, ProviderError> =>
      requestKeyOfPaymentId(request.providerPaymentId) === null
        ? act(request)
        : sbpSaving
            .paymentIdOf(request.providerPaymentId)
            .andThen((paymentId) => act({ ...request, providerPaymentId: paymentId }))
            .map((answer) => rename(answer, request.providerPaymentId));
  // Charge takes a card's RebillId, ChargeQr a bound SBP account's AccountToken (README).
  const storedMethods: readonly PaymentMethod[] = (options.storedMethods ?? ["card"]).filter((method) =>
    METHODS.includes(method),
  );
  const capabilities: ProviderCapabilities = {
    methods: METHODS,
    storedMethodCharge: storedMethods,
    // Init with Recurrent=Y and CustomerKey saves a card (…/eacq/api/init), charged later with Charge;
    // SBP is saved by binding an account (AddAccountQr) that pays the invoice with ChargeQr (sbp-saving.ts).
    saveMethod: storedMethods,
    // A 54-FZ Receipt (FFD 1.05) inside every Init, stored-method charges included (receipt-mapping.ts).
    receipts: true,
    // [T]'s Taxation has no envd (taxSystemCode 4): an invoice with it is refused when it is created.
    receiptTaxSystems: TAX_SYSTEMS_TAKEN,
    cancelPending: true,
    confirmationOrigins: apiUrl === TBANK_API_URL ? TBANK_CONFIRMATION_ORIGINS : [new URL(apiUrl).origin],
    currencies: ["RUB"],
    // The smallest SBP operation is 10 RUB ([T] Init_FULL.Amount); a card's check is 1 RUB (the default).
    verificationAmount: { sbp: "1000" },
    paymentPage: "kopek",
  };
  const refuse = (message: string): ResultAsync<never, ProviderError> =>
    errAsync({ code: "failed", message });

  // A paid saving order's card comes from GetCardList, not from the notification (which is not trusted
  // for data): GetState tells the OrderId, the OrderId is the CustomerKey (saved-cards.ts).
  const getPayment = (providerPaymentId: string): ResultAsync<ProviderPayment, ProviderError> =>
    requestKeyOfPaymentId(providerPaymentId) !== null
      ? sbpSaving.getPayment(providerPaymentId)
      : getCardPayment(providerPaymentId);
  const getCardPayment = (providerPaymentId: string): ResultAsync<ProviderPayment, ProviderError> =>
    orders.getState(providerPaymentId).andThen((state) => {
      const payment = providerPaymentOf(state.PaymentId, state.Status, state.Amount);
      if (payment.status !== "succeeded") return okAsync(payment);
      return savedCards
        .savedWith(state.OrderId)
        .map((saved) =>
          saved === null ? payment : { ...payment, methodMask: saved.methodMask, savedMethod: saved },
        );
    });

  function cancelPayment(request: { readonly providerPaymentId: string }) {
    return orders.getState(request.providerPaymentId).andThen((state) => {
      if (providerPaymentOf(state.PaymentId, state.Status, state.Amount).status === "canceled")
        return okAsync(providerPaymentOf(state.PaymentId, state.Status, state.Amount));
      if (!CANCELABLE.has(state.Status)) {
        return refuse(
          `T-Bank payment ${state.PaymentId} is ${state.Status}: only NEW or FORM_SHOWED payments are canceled`,
        );
      }
      return client
        .call("Cancel", { PaymentId: state.PaymentId }, cancelSchema)
        .mapErr(providerErrorOf)
        .map((canceled) => providerPaymentOf(canceled.PaymentId, canceled.Status, canceled.OriginalAmount));
    });
  }

  // A card bound with no payment (card-binding.ts): on T-Bank's form, read back with GetAddCardState.
  const methodSaves =
    options.saveWithoutPayment === true && storedMethods.includes("card") ? createCardBinding(client) : null;

  return {
    capabilities,
    ...(methodSaves === null ? {} : { methodSaves }),
    // The ref tells what it is (stored-ref.ts): a bound SBP account's, or a card's.
    describeStoredMethod: (request) =>
      parseBoundAccountRef(request.ref) === null
        ? savedCards.describe(request)
        : boundAccounts.describe(request),
    chargeStoredMethod: (request) =>
      storedMethods.includes(request.method)
        ? orders.chargeStoredMethod(request)
        : refuse(`T-Bank adapter: stored ${request.method} charges are not enabled (storedMethods)`),
    createPaymentLink: (request) =>
      request.money.currency === "RUB"
        ? okAsync({ url: request.hostedPageUrl })
        : refuse(`T-Bank adapter: ${request.money.currency} is not accepted (RUB only)`),
    createPayment: (request) =>
      request.saveMethod && request.method === "sbp" && storedMethods.includes("sbp")
        ? sbpSaving.createPayment(request)
        : orders.createPayment(request),
    getPayment,
    findPaymentByKey: (lookup) =>
      findPaymentByKey({ client, getPayment, boundWith: sbpSaving.boundWith }, lookup),
    cancelPayment: onBinding(cancelPayment, (answer, id) => ({ ...answer, providerPaymentId: id })),
    refundPayment: onBinding(refundPayment, (answer, id) => ({ ...answer, providerPaymentId: id })),
    getRefund,
    readNotification: (notification) => readTBankNotification(notification, terminalKey, password),
    // developer.tbank.ru/eacq/intro/developer/notification: answer HTTP 200 with the body OK, or T-Bank repeats it.
    notificationAnswer: { status: 200, contentType: "text/plain; charset=utf-8", body: "OK" },
  };
}
