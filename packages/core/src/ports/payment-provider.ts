import type { Result, ResultAsync } from "neverthrow";
import type { Money, PaymentFailureCode, PaymentMethod, PaymentStatus, Receipt } from "../domain/model.js";
import type { MethodSaves } from "./method-saves.js";
import type { ProviderError, ProviderSavedMethod } from "./provider-answers.js";

export type { ProviderError, ProviderSavedMethod } from "./provider-answers.js";

/** A payment company, seen from Kopek. One instance serves one project's provider settings. */
export interface PaymentProvider {
  /** What this provider can do: methods, stored-method charging, currencies. */
  readonly capabilities: ProviderCapabilities;
  /** Describes a stored method (for a card: first six and last four digits, length). */
  describeStoredMethod(request: StoredMethodLookup): ResultAsync<StoredMethodDescription, ProviderError>;
  /**
   * Charges a stored method without the payer. The provider's answer: `succeeded`, `canceled` (a
   * decline, with its failure code) or `pending` (decided later: Kopek asks `getPayment`). An error
   * means no answer: `unavailable` is an unknown outcome (Kopek asks again with the same key, never a
   * new one); `failed`, the provider refused the request itself. The same `idempotencyKey` never
   * charges twice.
   */
  chargeStoredMethod(request: StoredMethodCharge): ResultAsync<ProviderPayment, ProviderError>;
  /** Creates the link where a payer pays an invoice (called only when `capabilities.paymentPage` is `"provider"`). */
  createPaymentLink(request: PaymentLinkRequest): ResultAsync<PaymentLink, ProviderError>;
  /**
   * Creates a payment the payer confirms at the provider (a card form, an SBP QR or bank link): it is
   * `pending` until then, and `confirmationUrl` is where to send the payer. The same `idempotencyKey`
   * with the same request answers the same payment, never a second one.
   */
  createPayment(request: PaymentRequest): ResultAsync<CreatedPayment, ProviderError>;
  /** How a payment stands at the provider now: the verified word Kopek settles on (API.md 10.1). */
  getPayment(providerPaymentId: string): ResultAsync<ProviderPayment, ProviderError>;
  /**
   * The payment a `chargeStoredMethod` or `createPayment` with this key made, as it stands now; null
   * when the provider made none (it never received the call, or refused it). How reconciliation learns
   * the outcome of a call whose answer Kopek never recorded (the process died, or the write after the
   * call failed) without sending it again. An error: no answer now (asked again later).
   */
  findPaymentByKey(lookup: PaymentLookup): ResultAsync<ProviderPayment | null, ProviderError>;
  /**
   * Cancels a payment still pending at the provider (an invoice closed while its payer was at the
   * checkout, API.md 10.3.6). Only when `capabilities.cancelPending`; otherwise refused (`failed`).
   */
  cancelPayment(request: CancelRequest): ResultAsync<ProviderPayment, ProviderError>;
  /** Refunds (part of) a succeeded payment. The same key with the same request is the same refund. */
  refundPayment(request: RefundRequest): ResultAsync<ProviderRefund, ProviderError>;
  /** How a refund stands at the provider now. */
  getRefund(providerRefundId: string): ResultAsync<ProviderRefund, ProviderError>;
  /**
   * Which payment a notification the provider POSTed is about (API.md 10.4). Its body is never
   * trusted for the outcome: Kopek asks `getPayment` next. Null: about nothing Kopek tracks (another
   * kind of event); an error: not a notification of this provider, which changes nothing.
   */
  readNotification(notification: ProviderNotification): Result<NotificationSubject | null, ProviderError>;
  /** What the provider expects in answer to a notification that got through. */
  readonly notificationAnswer: NotificationAnswer;
  /**
   * Saving a payer's method with no payment (API.md 11.5), where the provider documents it and the
   * project turned it on; absent: a new method is saved with a verification payment.
   */
  readonly methodSaves?: MethodSaves;
}

/** A notification as the provider POSTed it to Kopek. */
export interface ProviderNotification {
  readonly headers: Readonly<Record<string, string | readonly string[] | undefined>>;
  readonly body: string;
}

/** What a notification names: the provider's payment, and Kopek's id of it when the provider carries one. */
export interface NotificationSubject {
  readonly providerPaymentId: string;
  /**
   * Kopek's id of the payment as the notification's body carries it (the `paymentId` Kopek gave the
   * provider, kept in its metadata). It finds a Payment whose provider id is not stored yet (the
   * charge's answer is still on its way, or was lost); trusted only once `getPayment` confirms it
   * (`ProviderPayment.kopekPaymentId`). Absent when the provider does not carry it.
   */
  readonly kopekPaymentId?: string;
}

export interface NotificationAnswer {
  readonly status: number;
  readonly contentType: string;
  readonly body: string;
}

/** A payment for the payer to confirm at the provider. */
export interface PaymentRequest {
  /** Kopek's id of the payment, kept by the provider with its own (its metadata). */
  readonly paymentId: string;
  readonly money: Money;
  readonly method: PaymentMethod;
  readonly description: string;
  /** Where the provider sends the payer back once they confirmed or gave up. */
  readonly returnUrl: string;
  /** Where the provider may notify Kopek of the outcome (a provider configured per shop ignores it). */
  readonly notificationUrl: string;
  /**
   * The 54-FZ receipt to register with this payment (API.md 10.7); null for none. Kopek refuses a
   * receipt at creation when `capabilities.receipts` is false; its items add up to `money` exactly.
   */
  readonly receipt: Receipt | null;
  /** Derived from the invoice, the method and the attempt: the same across retries of one attempt. */
  readonly idempotencyKey: string;
  /** Whether the provider is asked to save the payer's method for later charges (API.md 10.5). */
  readonly saveMethod: boolean;
  /** When the invoice expires: the provider's payment link need not outlive it. Absent: not known. */
  readonly expiresAt?: Date;
}

/** One payment as the provider says it stands. */
export interface ProviderPayment {
  readonly providerPaymentId: string;
  readonly status: PaymentStatus;
  /** Why it was canceled; null unless it was. */
  readonly failureCode: PaymentFailureCode | null;
  /** The masked card or account, when the provider tells. */
  readonly methodMask: string | null;
  /**
   * The payer's method the provider saved with this payment (asked by `PaymentRequest.saveMethod`),
   * chargeable later with `chargeStoredMethod`; null when it saved none.
   */
  readonly savedMethod: ProviderSavedMethod | null;
  /**
   * The amount and currency the provider says the payment is for; null only when its answer did not
   * say. Kopek acts on a final word only when this is the money it asked for (API.md 10.1).
   */
  readonly money: Money | null;
  /**
   * Kopek's id of the payment as the provider keeps it (`paymentId` of the request that made it, in
   * its metadata); absent or null when the provider does not tell. A notification that names a
   * Payment by this id alone settles it only when the provider's own answer says so.
   */
  readonly kopekPaymentId?: string | null;
}

export interface CreatedPayment extends ProviderPayment {
  /** Where the payer confirms the payment. */
  readonly confirmationUrl: string;
}

export interface ProviderCapabilities {
  /** Methods a payer can use for a one-time payment (invoice). */
  readonly methods: readonly PaymentMethod[];
  /** Methods whose stored form can be charged without the payer (subscriptions). */
  readonly storedMethodCharge: readonly PaymentMethod[];
  /** Methods the provider can save for later charges when the payer pays (API.md 10.5). */
  readonly saveMethod: readonly PaymentMethod[];
  /** Whether it takes 54-FZ receipts with a charge (API.md 10.7). */
  readonly receipts: boolean;
  /** The receipt `taxSystemCode`s it takes, when not all (absent: all); a receipt with another is refused at creation. */
  readonly receiptTaxSystems?: readonly number[];
  /** Whether `cancelPayment` can cancel a pending payment. */
  readonly cancelPending: boolean;
  /**
   * Origins (`https://host[:port]`) of the pages `confirmationUrl` sends payers to, besides Kopek's own
   * server: the hosted page's Content-Security-Policy allows its form to redirect there.
   */
  readonly confirmationOrigins: readonly string[];
  /** ISO 4217 codes it accepts. */
  readonly currencies: readonly string[];
  /**
   * The smallest payment it takes per method, in minor units: what a verification payment that saves a
   * payer's new method charges (and refunds at once, API.md 11.5). Absent for a method: one rouble
   * (`DEFAULT_VERIFICATION_AMOUNT`).
   */
  readonly verificationAmount?: Readonly<Partial<Record<PaymentMethod, string>>>;
  /**
   * Where the payer of an invoice pays. `"provider"`: on a page of the provider's own, which
   * `createPaymentLink` makes when the invoice is created. `"kopek"`: on Kopek's hosted page, so the
   * provider is first involved when the payer pays; creating an invoice then asks nothing of it, and
   * Kopek stores the invoice with its idempotency record in one step (`Storage.createOnce`).
   */
  readonly paymentPage: "provider" | "kopek";
}

/**
 * The methods a payer can save with this provider in a form the project can charge later: those it
 * saves (`saveMethod`) that the project may charge stored (`storedMethodCharge`, 10.8).
 */
export function chargeableLater(capabilities: ProviderCapabilities): readonly PaymentMethod[] {
  return capabilities.saveMethod.filter((method) => capabilities.storedMethodCharge.includes(method));
}

export interface StoredMethodLookup {
  readonly ref: string;
  readonly method: PaymentMethod;
}

export type StoredMethodDescription =
  | {
      readonly kind: "card";
      readonly first6: string;
      readonly last4: string;
      /** Number of digits of the card number, 13 to 19. */
      readonly length: number;
    }
  /** A non-card method, described by a mask the provider made (e.g. a masked phone). */
  | { readonly kind: "masked"; readonly mask: string };

export interface StoredMethodCharge {
  /** Kopek's id of the payment, kept by the provider with its own (its metadata). */
  readonly paymentId: string;
  readonly ref: string;
  readonly method: PaymentMethod;
  readonly money: Money;
  readonly description: string;
  /** The 54-FZ receipt to register with this charge, as for `PaymentRequest`; null for none. */
  readonly receipt: Receipt | null;
  /** Derived from the idempotency record and the step: the same across re-executions. */
  readonly idempotencyKey: string;
}

/** What Kopek knows of a call whose answer it lost: its key, and the payment it was made for. */
export interface PaymentLookup {
  /** The `idempotencyKey` the call was sent with. */
  readonly idempotencyKey: string;
  /** Kopek's id of the payment (`StoredMethodCharge.paymentId`, `PaymentRequest.paymentId`). */
  readonly paymentId: string;
  /** When Kopek recorded the payment, just before the call: the provider made it at or after this time. */
  readonly createdAt: Date;
}

export interface CancelRequest {
  readonly providerPaymentId: string;
  readonly idempotencyKey: string;
}

export interface RefundRequest {
  /** Kopek's id of the refund. */
  readonly refundId: string;
  readonly providerPaymentId: string;
  /** At most what remains refundable of the payment, in its currency. */
  readonly money: Money;
  readonly reason: string | null;
  readonly idempotencyKey: string;
  /**
   * The 54-FZ receipt of a partial refund of a payment sent with one: the items it returns
   * (refunds/refund-receipt.ts, API.md 10.7). Absent or null for a refund of the whole payment (the
   * provider takes the payment's own receipt) and for a payment without one.
   */
  readonly receipt?: Receipt | null;
  /**
   * True when an earlier ask for this refund may have reached the provider: every ask but the first
   * one right after Kopek stored the refund (reconciliation, a re-executed request). A provider whose
   * refunds are not idempotent by key (T-Bank SBP) must then not refund blindly again. Absent or false:
   * no earlier ask was made.
   */
  readonly mayHaveBeenSent?: boolean;
}

/** One refund as the provider says it stands. */
export interface ProviderRefund {
  readonly providerRefundId: string;
  readonly providerPaymentId: string;
  readonly status: "pending" | "succeeded" | "canceled";
  readonly money: Money;
}

export interface PaymentLinkRequest {
  readonly invoiceId: string;
  readonly money: Money;
  readonly description: string;
  readonly methods: readonly PaymentMethod[];
  readonly expiresAt: Date;
  /** Kopek's own hosted page for this invoice; a provider without its own page returns it. */
  readonly hostedPageUrl: string;
  readonly idempotencyKey: string;
}

export interface PaymentLink {
  readonly url: string;
}
