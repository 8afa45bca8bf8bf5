import { randomUUID } from "node:crypto";
import type { Json } from "./emulator-methods.js";
import type { EmulatorBooks, Notification } from "./emulator-payments.js";
import { type Invalid, kopecksOf, majorValueOf, type RefundCreation } from "./emulator-validation.js";

// POST /refunds (yookassa.ru/developers/api#create_refund): only a succeeded payment, never beyond what
// remains, a partial refund of a payment with a receipt carries the refund's receipt.

export function createRefund(
  books: Pick<EmulatorBooks, "payments" | "refunds" | "receipts">,
  request: RefundCreation,
  notify: (notification: Notification) => void,
): Invalid | Json {
  const payment = books.payments.get(request.paymentId);
  if (payment === undefined) return { parameter: "payment_id", description: "Payment not found" };
  if (payment.status !== "succeeded")
    return { parameter: "payment_id", description: "Only a succeeded payment can be refunded" };
  const paid = kopecksOf((payment.amount as { value: string }).value);
  const refunded = kopecksOf((payment.refunded_amount as { value: string } | undefined)?.value ?? "0");
  const amount = kopecksOf(request.amount.value);
  if (amount > paid - refunded) {
    return {
      parameter: "amount",
      description: `Refund amount exceeds what remains: ${majorValueOf(paid - refunded)}`,
    };
  }
  // yookassa.ru/developers/payment-acceptance/receipts/54fz/yoomoney/refunds: a full refund needs no
  // receipt data (YooKassa takes the payment's); a partial refund of a payment sent with a receipt
  // passes the returned goods in `receipt`.
  if (request.receipt === null && amount < paid && books.receipts.has(request.paymentId)) {
    return {
      parameter: "receipt",
      description: "A partial refund of a payment with a receipt needs the refund's receipt",
    };
  }
  const refund: Json = {
    id: randomUUID(),
    payment_id: request.paymentId,
    status: "succeeded",
    created_at: new Date().toISOString(),
    amount: request.amount,
    ...(request.description === null ? {} : { description: request.description }),
  };
  books.refunds.set(refund.id as string, refund);
  if (request.receipt !== null) books.receipts.set(refund.id as string, request.receipt);
  payment.refunded_amount = { value: majorValueOf(refunded + amount), currency: "RUB" };
  payment.refundable = refunded + amount < paid;
  notify({ event: "refund.succeeded", object: { ...refund } });
  return refund;
}
