import type { PaymentLookup, ProviderError, ProviderPayment } from "@kopek/core";
import { errAsync, okAsync, type ResultAsync } from "neverthrow";
import { z } from "zod";
import { orderIdOf, savingOrderIdOf } from "./order-id.js";
import { providerErrorOf } from "./payment-mapping.js";
import type { TBankClient } from "./tbank-client.js";
import { paymentOfOrder } from "./tbank-orders.js";
import { checkedOrderSchema } from "./tbank-schemas.js";

// The error T-Bank's OpenAPI document lists for an order it does not know: "`OrderId` {value} не найден
// для `TerminalKey` {value}" (error table of tbank.ru/kassa/dev/payments, mirrored in github
// kravetsone/t-kassa-api openapi.json v1.80). Any other refusal is no answer: it never reads as "none".
const UNKNOWN_ORDER = "335";

export interface PaymentLookupDeps {
  readonly client: TBankClient;
  /** How a payment stands now, as `getPayment` tells it (with the card a saving order saved). */
  readonly getPayment: (providerPaymentId: string) => ResultAsync<ProviderPayment, ProviderError>;
  /** The payment an SBP binding made for this key in this process, if any (sbp-saving.ts). */
  readonly boundWith: (idempotencyKey: string) => string | null;
}

/**
 * The payment a `createPayment` or `chargeStoredMethod` with this key made. T-Bank has no idempotency
 * key, but every order Kopek makes has an `OrderId` derived from the key (order-id.ts): `orderIdOf` for
 * a charge or a payment, `savingOrderIdOf` for a payment that saves the card. `CheckOrder` tells each
 * order's payments (developer.tbank.ru/eacq/api/check-order); the one that tells the outcome is then read
 * as `getPayment` reads it (`GetState`, …/eacq/api/get-state). A payment that binds an SBP account has an
 * order named after T-Bank's `RequestKey`, which no key derives: it is found only in the process that made
 * it, and one whose answer was lost was never shown to a payer, never confirmed, and moved no money.
 */
export function findPaymentByKey(
  deps: PaymentLookupDeps,
  lookup: PaymentLookup,
): ResultAsync<ProviderPayment | null, ProviderError> {
  const bound = deps.boundWith(lookup.idempotencyKey);
  if (bound !== null) return deps.getPayment(bound);
  const orders = [orderIdOf(lookup.idempotencyKey), savingOrderIdOf(lookup.idempotencyKey)];
  const next = (index: number): ResultAsync<ProviderPayment | null, ProviderError> => {
    const orderId = orders[index];
    if (orderId === undefined) return okAsync(null);
    return paymentIdOfOrder(deps.client, orderId).andThen((paymentId) =>
      paymentId === null ? next(index + 1) : deps.getPayment(paymentId),
    );
  };
  return next(0);
}

/** The id of the order's payment that tells its outcome; null when T-Bank says it holds none. */
function paymentIdOfOrder(client: TBankClient, orderId: string): ResultAsync<string | null, ProviderError> {
  // Read as any JSON and checked here: an answer T-Bank gave, but not as documented, is `failed`; one
  // without `Payments` is never taken for an order without payments.
  return client
    .call("CheckOrder", { OrderId: orderId }, z.unknown())
    .orElse((failure) =>
      failure.kind === "refused" && failure.answer.ErrorCode === UNKNOWN_ORDER
        ? okAsync({ OrderId: orderId, Payments: [] })
        : errAsync(providerErrorOf(failure)),
    )
    .andThen((answer) => {
      const order = checkedOrderSchema.safeParse(answer);
      if (!order.success)
        return errAsync<never, ProviderError>({
          code: "failed",
          message: "T-Bank CheckOrder: an answer of unexpected shape",
        });
      return okAsync(paymentOfOrder(order.data.Payments)?.PaymentId ?? null);
    });
}
