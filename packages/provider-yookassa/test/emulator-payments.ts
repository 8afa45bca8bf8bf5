import { randomUUID } from "node:crypto";
import { isCancellationReason, partyOf } from "./emulator-cancellation.js";
import { chargedWith, type Json, newMethodId, paymentMethod, savedMethodObject } from "./emulator-methods.js";
import { createRefund } from "./emulator-refunds.js";
import { type Invalid, kopecksOf, type PaymentCreation, type RefundCreation } from "./emulator-validation.js";

// The emulator's books: payments, refunds and saved methods, as YooKassa's payment and refund objects
// (yookassa.ru/developers/api). Operations are synchronous, so parallel requests see one state.

export type { Json };

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
  /** The object `GET /payment_methods/{id}` answers. */
  readonly object: Json;
  readonly outcome: ChargeOutcome;
}

export class EmulatorBooks {
  readonly payments = new Map<string, Json>();
  readonly refunds = new Map<string, Json>();
  /** The 54-FZ receipt each payment or refund came with, by its id, exactly as the request sent it. */
  readonly receipts = new Map<string, Json>();
  /** Saved methods by their own id (`payment_method.id`), as `GET /payment_methods/{id}` answers them. */
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
      const method = this.saved.get(request.paymentMethodId);
      if (method === undefined || method.object.status !== "active") {
        return { parameter: "payment_method_id", description: "Saved payment method not found" };
      }
      if (method.outcome === "unavailable") return "unavailable";
      const payment: Json = { ...base, payment_method: chargedWith(method.object), capture: request.capture };
      this.payments.set(id, payment);
      if (request.receipt !== null) this.receipts.set(id, request.receipt);
      if (method.outcome === "pending") return payment;
      if (method.outcome === "pending-until-read") {
        payment.settle_on_read = true;
        return { ...payment };
      }
      if (method.outcome === "succeeded") return this.succeed(id, request.capture);
      return this.cancel(id, method.outcome.decline);
    }
    const payment: Json = {
      ...base,
      ...(request.methodType === null
        ? {}
        : {
            payment_method: paymentMethod({
              type: request.methodType,
              id: newMethodId(),
              status: request.savePaymentMethod ? "pending" : "inactive",
            }),
          }),
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

  /**
   * The payer at the checkout page: pays with `card` (a decline card declines) or gives up. A payment
   * asked with `save_payment_method` saves its method under the method's own id.
   */
  decide(id: string, decision: { card: string } | { decline: string }): Json | null {
    const payment = this.payments.get(id);
    if (payment === undefined || payment.status !== "pending") return null;
    if ("decline" in decision) return this.cancel(id, decision.decline);
    const reason = EMULATOR_DECLINE_CARDS[decision.card];
    const earlier = payment.payment_method as Json | undefined;
    const type = String(earlier?.type ?? "bank_card");
    const save = payment.save_payment_method === true && reason === undefined;
    payment.payment_method = paymentMethod({
      type,
      id: typeof earlier?.id === "string" ? earlier.id : newMethodId(),
      status: save ? "active" : "inactive",
      ...(type === "bank_card" ? { card: decision.card } : {}),
    });
    if (reason !== undefined) return this.cancel(id, reason);
    if (save) this.keepSaved(payment.payment_method as Json, "succeeded");
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

  /** `GET /payment_methods/{id}`: the saved method, "unavailable" for an outage, undefined when unknown. */
  readMethod(id: string): Json | "unavailable" | undefined {
    const method = this.saved.get(id);
    if (method?.outcome === "unavailable") return "unavailable";
    return method === undefined ? undefined : { ...method.object };
  }

  /** The payer never confirmed in time, or the merchant never captured in time. */
  expire(id: string): Json | null {
    const status = this.payments.get(id)?.status;
    if (status === "pending") return this.cancel(id, "expired_on_confirmation");
    return status === "waiting_for_capture" ? this.cancel(id, "expired_on_capture") : null;
  }

  /**
   * A card saved by an earlier succeeded payment; later charges of it do `outcome`. Returns the saved
   * method's id, which is not the id of the payment that saved it.
   */
  seedSavedMethod(options: { id?: string; card?: string; outcome?: ChargeOutcome } = {}): string {
    const method = paymentMethod({
      type: "bank_card",
      id: options.id ?? newMethodId(),
      status: "active",
      card: options.card ?? EMULATOR_SUCCESS_CARD,
    });
    const paymentId = randomUUID();
    this.payments.set(paymentId, {
      id: paymentId,
      status: "succeeded",
      amount: { value: "1.00", currency: "RUB" },
      recipient: { account_id: this.shopId, gateway_id: "100500" },
      created_at: new Date().toISOString(),
      test: true,
      paid: true,
      refundable: true,
      refunded_amount: { value: "0.00", currency: "RUB" },
      metadata: {},
      payment_method: method,
    });
    this.keepSaved(method, options.outcome ?? "succeeded");
    return String(method.id);
  }

  /** POST /payments/{id}/capture: a waiting_for_capture payment, for its amount or a part of it. */
  capture(id: string, amount: { value: string; currency: string } | null): Invalid | Json | null {
    const payment = this.waitingForCapture(id, "captured");
    if (payment === null || "parameter" in payment) return payment;
    if (amount !== null) {
      if (kopecksOf(amount.value) > kopecksOf((payment.amount as { value: string }).value))
        return { parameter: "amount", description: "Capture amount exceeds the payment amount" };
      payment.amount = amount;
    }
    return this.succeed(id, true);
  }

  /** POST /payments/{id}/cancel: YooKassa cancels only payments waiting_for_capture. */
  cancelByMerchant(id: string): Invalid | Json | null {
    const payment = this.waitingForCapture(id, "canceled");
    return payment === null || "parameter" in payment ? payment : this.cancel(id, "canceled_by_merchant");
  }

  /** The payment when it waits for capture; what is wrong otherwise (null: no such payment). */
  private waitingForCapture(id: string, done: string): Invalid | Json | null {
    const payment = this.payments.get(id);
    if (payment === undefined) return null;
    if (payment.status === "waiting_for_capture") return payment;
    return {
      parameter: "payment_id",
      description: `Payment in status ${String(payment.status)} can't be ${done}; only waiting_for_capture`,
    };
  }

  createRefund(request: RefundCreation): Invalid | Json {
    return createRefund(this, request, this.notify);
  }

  private keepSaved(method: Json, outcome: ChargeOutcome): void {
    this.keepMethod(savedMethodObject(method, this.shopId), outcome);
  }

  /**
   * Keeps a payment method object (SavePaymentMethod, with `holder`) under its id, as it is: what
   * `GET /payment_methods/{id}` answers, and, once `active`, what `payment_method_id` charges.
   */
  keepMethod(object: Json, outcome: ChargeOutcome = "succeeded"): void {
    this.saved.set(String(object.id), { object, outcome });
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

  /** Cancels with a documented reason and the party that decides it (emulator-cancellation.ts). */
  private cancel(id: string, reason: string): Json {
    if (!isCancellationReason(reason)) throw new Error(`YooKassa documents no cancellation reason ${reason}`);
    const payment = this.payments.get(id) as Json;
    payment.status = "canceled";
    payment.paid = false;
    payment.cancellation_details = { party: partyOf(reason), reason };
    this.notify({ event: "payment.canceled", object: publicPayment(payment) });
    return payment;
  }
}

/** What the API answers with: the object without the emulator's bookkeeping fields. */
export function publicPayment(payment: Json): Json {
  const { capture: _capture, save_payment_method: _save, settle_on_read: _settle, ...rest } = payment;
  return rest;
}
