import { randomUUID } from "node:crypto";
import {
  type Invalid,
  kopecksOf,
  majorValueOf,
  type PaymentCreation,
  type RefundCreation,
} from "./emulator-validation.js";

// The emulator's books: payments, refunds and saved methods, as YooKassa's payment and refund objects
// (yookassa.ru/developers/api). Operations are synchronous, so parallel requests see one state.

export type Json = Record<string, unknown>;

/**
 * What a charge of a saved method does: the emulator's stand-in for the card's issuer. `"pending"` stays
 * pending; `"pending-until-read"` is pending in the answer and succeeded when next read (the bank decided).
 */
export type ChargeOutcome =
  | "succeeded"
  | "pending"
  | "pending-until-read"
  | "unavailable"
  | { readonly decline: string };

/** Test cards of the emulator's checkout: any other Luhn-agnostic 16 digits succeed. */
export const EMULATOR_DECLINE_CARDS: Readonly<Record<string, string>> = {
  "5555555555550001": "insufficient_funds",
  "5555555555550002": "general_decline",
  "5555555555550003": "3d_secure_failed",
  "5555555555550004": "card_expired",
  "5555555555550005": "fraud_suspected",
};
export const EMULATOR_SUCCESS_CARD = "5555555555554477";

export interface Notification {
  readonly event: string;
  readonly object: Json;
}

interface SavedMethod {
  readonly outcome: ChargeOutcome;
}

export class EmulatorBooks {
  readonly payments = new Map<string, Json>();
  readonly refunds = new Map<string, Json>();
  /** The 54-FZ receipt each payment or refund came with, by its id, exactly as the request sent it. */
  readonly receipts = new Map<string, Json>();
  private readonly saved = new Map<string, SavedMethod>();

  constructor(
    private readonly shopId: string,
    private readonly checkoutUrlOf: (id: string) => string,
    private readonly notify: (notification: Notification) => void,
  ) {}

  createPayment(request: PaymentCreation): Invalid | Json | "unavailable" {
    const id = randomUUID();
    const base: Json = {
      id,
      status: "pending",
      amount: request.amount,
      ...(request.description === null ? {} : { description: request.description }),
      recipient: { account_id: this.shopId, gateway_id: "100500" },
      created_at: new Date().toISOString(),
      test: true,
      paid: false,
      refundable: false,
      metadata: request.metadata,
      // What YooKassa answers for a payment sent with a receipt: registration follows the payment.
      ...(request.receipt === null ? {} : { receipt_registration: "pending" }),
    };
    if (request.paymentMethodId !== null) {
      const source = this.payments.get(request.paymentMethodId);
      const method = this.saved.get(request.paymentMethodId);
      const sourceMethod = source?.payment_method as Json | undefined;
      if (method === undefined || sourceMethod === undefined) {
        return { parameter: "payment_method_id", description: "Saved payment method not found" };
      }
      if (method.outcome === "unavailable") return "unavailable";
      const payment: Json = { ...base, payment_method: { ...sourceMethod }, capture: request.capture };
      this.payments.set(id, payment);
      if (request.receipt !== null) this.receipts.set(id, request.receipt);
      if (method.outcome === "pending") return payment;
      if (method.outcome === "pending-until-read") {
        payment.settle_on_read = true;
        return { ...payment };
      }
      if (method.outcome === "succeeded") return this.succeed(id, request.capture);
      return this.cancel(id, "payment_network", method.outcome.decline);
    }
    const payment: Json = {
      ...base,
      ...(request.methodType === null
        ? {}
        : { payment_method: { type: request.methodType, id, saved: false } }),
      confirmation: {
        type: "redirect",
        confirmation_url: this.checkoutUrlOf(id),
        return_url: request.returnUrl,
      },
      capture: request.capture,
      save_payment_method: request.savePaymentMethod,
    };
    this.payments.set(id, payment);
    if (request.receipt !== null) this.receipts.set(id, request.receipt);
    return payment;
  }

  /** The payer at the checkout page: pays with `card` (a decline card declines) or gives up. */
  decide(id: string, decision: { card: string } | { decline: string }): Json | null {
    const payment = this.payments.get(id);
    if (payment === undefined || payment.status !== "pending") return null;
    if ("decline" in decision) return this.cancel(id, "payment_network", decision.decline);
    const reason = EMULATOR_DECLINE_CARDS[decision.card];
    const type = (payment.payment_method as Json | undefined)?.type ?? "bank_card";
    const save = payment.save_payment_method === true;
    const card = {
      first6: decision.card.slice(0, 6),
      last4: decision.card.slice(-4),
      expiry_month: "12",
      expiry_year: "2030",
      card_type: "MasterCard",
    };
    payment.payment_method = {
      type,
      id,
      saved: save && reason === undefined,
      ...(type === "bank_card" ? { title: `Bank card *${card.last4}`, card } : { title: "SBP" }),
    };
    if (reason !== undefined) return this.cancel(id, "payment_network", reason);
    if (save) this.saved.set(id, { outcome: "succeeded" });
    return this.succeed(id, payment.capture === true);
  }

  /** A payment as a GET finds it now (a "pending-until-read" charge has succeeded meanwhile). */
  read(id: string): Json | undefined {
    const payment = this.payments.get(id);
    if (payment?.settle_on_read === true) {
      delete payment.settle_on_read;
      this.succeed(id, true);
    }
    return payment;
  }

  /** What a GET of `id` answers now (see `read`). */
  readPublic(id: string): Json {
    return publicPayment(this.read(id) ?? {});
  }

  /** The payer never confirmed in time. */
  expire(id: string): Json | null {
    const payment = this.payments.get(id);
    return payment?.status === "pending" ? this.cancel(id, "yoo_kassa", "expired_on_confirmation") : null;
  }

  /** Whether `id` is a saved method seeded with the outcome "unavailable". */
  isUnavailable(id: string): boolean {
    return this.saved.get(id)?.outcome === "unavailable";
  }

  /** A succeeded payment whose card is saved; later charges of its id do `outcome`. Returns its id. */
  seedSavedMethod(options: { id?: string; card?: string; outcome?: ChargeOutcome } = {}): string {
    const id = options.id ?? randomUUID();
    const card = options.card ?? EMULATOR_SUCCESS_CARD;
    this.payments.set(id, {
      id,
      status: "succeeded",
      amount: { value: "1.00", currency: "RUB" },
      recipient: { account_id: this.shopId, gateway_id: "100500" },
      created_at: new Date().toISOString(),
      test: true,
      paid: true,
      refundable: true,
      refunded_amount: { value: "0.00", currency: "RUB" },
      metadata: {},
      payment_method: {
        type: "bank_card",
        id,
        saved: true,
        title: `Bank card *${card.slice(-4)}`,
        card: {
          first6: card.slice(0, 6),
          last4: card.slice(-4),
          expiry_month: "12",
          expiry_year: "2030",
          card_type: "MasterCard",
        },
      },
    });
    this.saved.set(id, { outcome: options.outcome ?? "succeeded" });
    return id;
  }

  /** POST /payments/{id}/cancel: YooKassa cancels only payments waiting_for_capture. */
  cancelByMerchant(id: string): Invalid | Json | null {
    const payment = this.payments.get(id);
    if (payment === undefined) return null;
    if (payment.status !== "waiting_for_capture") {
      return {
        parameter: "payment_id",
        description: `Payment in status ${String(payment.status)} can't be canceled; only waiting_for_capture`,
      };
    }
    return this.cancel(id, "merchant", "canceled_by_merchant");
  }

  createRefund(request: RefundCreation): Invalid | Json {
    const payment = this.payments.get(request.paymentId);
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
    if (request.receipt === null && amount < paid && this.receipts.has(request.paymentId)) {
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
    this.refunds.set(refund.id as string, refund);
    if (request.receipt !== null) this.receipts.set(refund.id as string, request.receipt);
    payment.refunded_amount = { value: majorValueOf(refunded + amount), currency: "RUB" };
    payment.refundable = refunded + amount < paid;
    this.notify({ event: "refund.succeeded", object: { ...refund } });
    return refund;
  }

  private succeed(id: string, capture: boolean): Json {
    const payment = this.payments.get(id) as Json;
    payment.paid = true;
    if (capture) {
      payment.status = "succeeded";
      payment.captured_at = new Date().toISOString();
      payment.refundable = true;
      payment.refunded_amount = { value: "0.00", currency: "RUB" };
    } else {
      payment.status = "waiting_for_capture";
    }
    this.notify({ event: `payment.${String(payment.status)}`, object: publicPayment(payment) });
    return payment;
  }

  private cancel(id: string, party: string, reason: string): Json {
    const payment = this.payments.get(id) as Json;
    payment.status = "canceled";
    payment.paid = false;
    payment.cancellation_details = { party, reason };
    this.notify({ event: "payment.canceled", object: publicPayment(payment) });
    return payment;
  }
}

/** What the API answers with: the object without the emulator's bookkeeping fields. */
export function publicPayment(payment: Json): Json {
  const { capture: _capture, save_payment_method: _save, settle_on_read: _settle, ...rest } = payment;
  return rest;
}
