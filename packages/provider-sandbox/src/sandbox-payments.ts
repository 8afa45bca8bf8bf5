import { randomUUID } from "node:crypto";
import type {
  CreatedPayment,
  NotificationSubject,
  PaymentRequest,
  ProviderError,
  ProviderNotification,
  ProviderPayment,
  ProviderSavedMethod,
} from "@kopek/core";
import { formatCardMask } from "@kopek/core";
import { err, ok, type Result } from "neverthrow";
import { booksOf, type SandboxLedger } from "./ledger.js";
import { rememberOutcome } from "./provider-idempotency.js";
import type { SandboxPayment } from "./sandbox-payment.js";
import { describeTestMethod } from "./test-cards.js";

export type { SandboxPayment };

/** What the payer does on the checkout page. */
export type SandboxDecision = "succeed" | "decline";

const UNKNOWN: ProviderError = { code: "failed", message: "the sandbox has no such payment" };

/**
 * The state of a payment as the port reports it: the sandbox tells no mask for a checkout payment.
 * Asked to save the method, a succeeded payment saved it (API.md 10.5).
 */
export function stateOf(payment: SandboxPayment): ProviderPayment {
  return {
    providerPaymentId: payment.providerPaymentId,
    status: payment.status,
    failureCode: payment.failureCode,
    methodMask: null,
    savedMethod: payment.saveMethod && payment.status === "succeeded" ? savedMethodOf(payment) : null,
    money: payment.money,
  };
}

/** Prefix of the refs of methods saved at the checkout: ordinary refs, so every later charge succeeds. */
export const SANDBOX_SAVED_PREFIX = "sandbox_saved_";

/**
 * The method a payment saved: a ref derived from the payment (the same every time it is asked), which
 * `chargeStoredMethod` charges and `describeStoredMethod` describes like any sandbox ref.
 */
function savedMethodOf(payment: SandboxPayment): ProviderSavedMethod {
  const ref = SANDBOX_SAVED_PREFIX + payment.providerPaymentId.replace(/^pay_/, "");
  const described = describeTestMethod({ ref, method: payment.method });
  return { ref, methodMask: described.kind === "card" ? formatCardMask(described) : described.mask };
}

/**
 * `createPayment`: a new pending payment, or the one its key already made (the same request); a key
 * given again with another amount, method or return URL is refused, as real providers do.
 */
export function createSandboxPayment(
  ledger: SandboxLedger,
  request: PaymentRequest,
  checkoutUrl: (providerPaymentId: string) => string,
): Result<CreatedPayment, ProviderError> {
  const books = booksOf(ledger);
  const { money, method, returnUrl } = request;
  const parameters = JSON.stringify([
    method,
    money.amount,
    money.currency,
    returnUrl,
    request.paymentId,
    request.saveMethod,
  ]);
  const created = rememberOutcome(books.paymentOutcomes, request.idempotencyKey, parameters, () => {
    const providerPaymentId = `pay_${randomUUID().replaceAll("-", "")}`;
    books.payments.set(providerPaymentId, {
      providerPaymentId,
      paymentId: request.paymentId,
      money: { amount: money.amount, currency: money.currency },
      method,
      description: request.description,
      receipt: request.receipt,
      returnUrl,
      notificationUrl: request.notificationUrl,
      status: "pending",
      failureCode: null,
      saveMethod: request.saveMethod,
    });
    return ok(providerPaymentId);
  });
  if (created.isErr()) return err(created.error);
  const payment = books.payments.get(created.value);
  if (payment === undefined) return err(UNKNOWN);
  return ok({ ...stateOf(payment), confirmationUrl: checkoutUrl(payment.providerPaymentId) });
}

/** `getPayment`: how it stands now. */
export function findSandboxPayment(ledger: SandboxLedger, providerPaymentId: string) {
  const payment = booksOf(ledger).payments.get(providerPaymentId);
  return payment === undefined ? err(UNKNOWN) : ok(stateOf(payment));
}

/** The payment `createPayment` made with this key, as it stands now; null when it made none. */
export function sandboxPaymentMadeWith(ledger: SandboxLedger, idempotencyKey: string) {
  const remembered = booksOf(ledger).paymentOutcomes.get(idempotencyKey);
  if (remembered === undefined || remembered.outcome.isErr()) return null;
  const payment = booksOf(ledger).payments.get(remembered.outcome.value);
  return payment === undefined ? null : stateOf(payment);
}

/**
 * The sandbox's checkout page, as the payer uses it: what a payment is, and the payer's decision.
 * Served by the reference server under `/sandbox/checkout/{providerPaymentId}`; nothing here settles
 * anything at Kopek, which learns the outcome only by asking (`getPayment`).
 */
export interface SandboxCheckout {
  find(providerPaymentId: string): SandboxPayment | null;
  /** Succeeds or declines a pending payment; a decided one stays as it was. Null when unknown. */
  decide(providerPaymentId: string, decision: SandboxDecision): SandboxPayment | null;
}

export function createSandboxCheckout(ledger: SandboxLedger): SandboxCheckout {
  const books = booksOf(ledger);
  return {
    find: (id) => books.payments.get(id) ?? null,
    decide(id, decision) {
      const payment = books.payments.get(id);
      if (payment === undefined || payment.status !== "pending") return payment ?? null;
      const decided: SandboxPayment =
        decision === "succeed"
          ? { ...payment, status: "succeeded" }
          : { ...payment, status: "canceled", failureCode: "payment_declined" };
      books.payments.set(id, decided);
      return decided;
    },
  };
}

/** The sandbox's notification: which payment changed, never how (Kopek asks `getPayment`). */
export const SANDBOX_NOTIFICATION_EVENT = "payment.updated";

const SANDBOX_PAYMENT_ID = /^(pay|ch)_[0-9a-f]{32}$/;

/** What the sandbox POSTs to a payment's `notificationUrl` once the payer decided. */
export function sandboxNotificationOf(payment: SandboxPayment): {
  readonly url: string;
  readonly body: string;
} {
  return {
    url: payment.notificationUrl,
    body: JSON.stringify({ event: SANDBOX_NOTIFICATION_EVENT, providerPaymentId: payment.providerPaymentId }),
  };
}

/** `readNotification`: the payment a sandbox notification names; null for another event. */
export function readSandboxNotification(
  notification: ProviderNotification,
): Result<NotificationSubject | null, ProviderError> {
  let body: unknown;
  try {
    body = JSON.parse(notification.body);
  } catch {
    return err(NOT_A_NOTIFICATION);
  }
  if (typeof body !== "object" || body === null || typeof (body as { event?: unknown }).event !== "string")
    return err(NOT_A_NOTIFICATION);
  const { event, providerPaymentId } = body as { event: string; providerPaymentId?: unknown };
  if (event !== SANDBOX_NOTIFICATION_EVENT) return ok(null);
  return typeof providerPaymentId === "string" && SANDBOX_PAYMENT_ID.test(providerPaymentId)
    ? ok({ providerPaymentId })
    : err(NOT_A_NOTIFICATION);
}

const NOT_A_NOTIFICATION: ProviderError = { code: "failed", message: "not a sandbox notification" };
