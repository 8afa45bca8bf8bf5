/** The values and resources of Kopek's domain, shared by use cases, ports and adapters. */
import type { MethodUpdate } from "./method-update.js";
import type { PaymentMethod } from "./payment-method.js";
import type { Receipt } from "./receipt.js";

export {
  RECEIPT_PAYMENT_MODES,
  RECEIPT_PAYMENT_SUBJECTS,
  type Receipt,
  type ReceiptItem,
  type ReceiptPaymentMode,
  type ReceiptPaymentSubject,
} from "./receipt.js";

/** Money: a string of whole minor units (`"149900"`) and an ISO 4217 code. Never a float. */
export interface Money {
  readonly amount: string;
  readonly currency: string;
}

export { PAYMENT_METHODS, type PaymentMethod } from "./payment-method.js";

export const PERIOD_UNITS = ["day", "week", "month", "year"] as const;
export type PeriodUnit = (typeof PERIOD_UNITS)[number];

export interface Period {
  readonly unit: PeriodUnit;
  readonly count: number;
}

export type Metadata = Readonly<Record<string, string>>;

/**
 * `incomplete`: created while its first charge is pending at the provider (API.md 10.5); `trialing`:
 * created with a trial, its first charge due at `trialEnd` (11.6); `paused`: its paid period ended with
 * a pause (11.4), nothing charged until it is resumed.
 */
export const SUBSCRIPTION_STATUSES = [
  "incomplete",
  "trialing",
  "active",
  "past_due",
  "paused",
  "canceled",
] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

/** Why a subscription ended: canceled through the API, or dunning ran out of retries. */
export const CANCEL_REASONS = ["requested", "payment_failed"] as const;
export type CancelReason = (typeof CANCEL_REASONS)[number];

export interface Subscription {
  readonly id: string;
  readonly projectId: string;
  readonly status: SubscriptionStatus;
  readonly amount: Money;
  readonly period: Period;
  readonly method: PaymentMethod;
  /** The provider's token for the stored method. Never returned, never logged. */
  readonly providerMethodRef: string;
  readonly methodMask: string;
  readonly description: string;
  readonly metadata: Metadata;
  readonly startedAt: Date;
  readonly nextChargeAt: Date;
  /** When the last cycle was charged; null while the first charge is pending (`incomplete`). */
  readonly lastChargedAt: Date | null;
  readonly cyclesStarted: number;
  readonly createdAt: Date;
  readonly canceledAt: Date | null;
  readonly cancelReason: CancelReason | null;
  /**
   * When a cancel at the end of the paid period takes effect (API.md 11.2): the `nextChargeAt` it was
   * asked at. The renewal worker charges nothing then and cancels. Null when none was asked, or undone.
   */
  readonly cancelAt: Date | null;
  /**
   * When a pause takes effect (API.md 11.4): the `nextChargeAt` it was asked at, where the renewal
   * worker charges nothing and pauses it; kept while paused. Null when none was asked, or once resumed.
   */
  readonly pauseAt: Date | null;
  /** When a trial ends and the first charge is due (API.md 11.6); null for a subscription without one. */
  readonly trialEnd: Date | null;
  /**
   * The schedule's anchor: period p (renewal-transition.ts) is due at `anchorAt` + (p − `anchorPeriod`)
   * periods. `startedAt` and period 0 for a subscription charged when created; `trialEnd` for a trial.
   */
  readonly anchorAt: Date;
  readonly anchorPeriod: number;
  /**
   * The schedule's period due at `nextChargeAt` (anchor + nextCycle periods): cycle nextCycle + 1 as
   * Payments count (renewal-transition.ts); 1 after creation, the second cycle.
   */
  readonly nextCycle: number;
  /** When the renewal worker acts next: `nextChargeAt`, or the next retry while past due. */
  readonly nextAttemptAt: Date;
  /** Declined charges of the unpaid cycle (dunning); 0 when active. */
  readonly declines: number;
  readonly firstDeclinedAt: Date | null;
  /**
   * The paid invoice whose payment was its first cycle (API.md 10.5), or null for one created with a
   * stored method. One invoice backs at most one subscription: storage refuses a second.
   */
  readonly invoiceId: string | null;
  /** The 54-FZ receipt sent with every cycle's charge (API.md 10.7); null when none was asked for. */
  readonly receipt: Receipt | null;
  /** The project's customer it bills (API.md 11.1), or null. */
  readonly customerId: string | null;
  /** The payer's newest link to put a new method on it (API.md 11.5), or null when none was asked. */
  readonly methodUpdate: MethodUpdate | null;
  /** 1 when created, bumped by every write; storage refuses a write based on a stale read. */
  readonly version: number;
}

export const INVOICE_STATUSES = ["created", "paid", "expired", "canceled"] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];

export interface Customer {
  readonly email: string;
  readonly phone: string | null;
  readonly externalId: string | null;
}

/** A payer's method the provider saved when they paid an invoice (API.md 10.5). */
export interface SavedMethod {
  readonly method: PaymentMethod;
  /** The masked card or account, when the provider told. */
  readonly methodMask: string | null;
  /** The provider's token for the method. Never returned, never logged. */
  readonly providerMethodRef: string;
}

/**
 * How many payment attempts an invoice takes on the hosted page, all methods together (docs/api.md,
 * "The hosted payment page"): past it a payer (or a bot) declining again and again makes no more
 * Payments, provider calls or `payment.canceled` events. A pending attempt chosen again is no new one.
 */
export const MAX_INVOICE_ATTEMPTS = 20;

export interface Invoice {
  readonly id: string;
  readonly projectId: string;
  readonly status: InvoiceStatus;
  readonly amount: Money;
  readonly description: string;
  readonly comment: string | null;
  readonly customer: Customer | null;
  readonly metadata: Metadata;
  readonly paymentUrl: string;
  readonly returnUrl: string | null;
  /** The methods the payer may choose from. */
  readonly allowedMethods: readonly PaymentMethod[];
  /** The method used to pay; null until paid. */
  readonly method: PaymentMethod | null;
  readonly pinnedMethod: PaymentMethod | null;
  readonly createdAt: Date;
  readonly expiresAt: Date;
  readonly paidAt: Date | null;
  readonly canceledAt: Date | null;
  /** Whether the provider is asked to save the payer's method (API.md 10.5). */
  readonly savePaymentMethod: boolean;
  /** The method the provider saved when the invoice was paid; null otherwise. */
  readonly savedMethod: SavedMethod | null;
  /** The 54-FZ receipt sent with the invoice's payment (API.md 10.7); null when none was asked for. */
  readonly receipt: Receipt | null;
  /**
   * Payment attempts made on the hosted page, all methods: bumped with the version that stores each
   * new attempt, so two tabs cannot both make one; at `MAX_INVOICE_ATTEMPTS` no new attempt is made.
   */
  readonly attempts: number;
  /** The project's customer it bills (API.md 11.1), or null; `customer` is then null. */
  readonly customerId: string | null;
  /** 1 when created, bumped by every write; storage refuses a write based on a stale read. */
  readonly version: number;
}

export const PAYMENT_STATUSES = ["pending", "succeeded", "canceled"] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

/**
 * What a payment is for (API.md 11.3): a subscription's cycle, an invoice, the prorated difference of a
 * price raised mid-cycle, or the smallest charge that proves a new method (11.5), refunded at once.
 */
export const PAYMENT_KINDS = ["cycle", "invoice", "proration", "verification"] as const;
export type PaymentKind = (typeof PAYMENT_KINDS)[number];

/** Why a payment was canceled (API.md 10.2). */
export const PAYMENT_FAILURE_CODES = [
  "payment_declined",
  "expired",
  "canceled_by_payer",
  "provider_error",
] as const;
export type PaymentFailureCode = (typeof PAYMENT_FAILURE_CODES)[number];

/**
 * One attempt to move money (API.md 10.2): an invoice's payment, or one cycle's charge of a
 * subscription. Only the provider's verified word moves it out of `pending` (10.1).
 */
export interface Payment {
  readonly id: string;
  readonly projectId: string;
  readonly status: PaymentStatus;
  readonly amount: Money;
  /** Whole minor units refunded so far, in the payment's currency: "0" until a refund succeeds. */
  readonly amountRefunded: string;
  readonly method: PaymentMethod;
  readonly methodMask: string | null;
  /** The invoice it pays, or null for a subscription's charge. */
  readonly invoiceId: string | null;
  /** The subscription whose cycle it charges, or null for an invoice's payment. */
  readonly subscriptionId: string | null;
  /** The cycle it charges (1 = the first), or null for an invoice's payment. */
  readonly cycle: number | null;
  /** What it is for; only `cycle` payments move a subscription's schedule. */
  readonly kind: PaymentKind;
  /** The provider kind that moves it (`sandbox`, `http`, …). */
  readonly provider: string;
  /** The provider's id of the payment, or null while unknown. */
  readonly providerPaymentId: string | null;
  readonly failureCode: PaymentFailureCode | null;
  readonly createdAt: Date;
  readonly succeededAt: Date | null;
  readonly canceledAt: Date | null;
  /**
   * When the reconciliation job next asks the provider about it (API.md 10.3.3): set while pending,
   * null once final. Not shown by the API.
   */
  readonly nextCheckAt: Date | null;
  /**
   * An invoice's payment: the attempt's number, which its provider idempotency key carries (the
   * invoice's `attempts` once it was made, so it only grows); null for a subscription's charge. Not shown.
   */
  readonly attempt: number | null;
  /** The customer of its invoice or subscription (API.md 11.1), or null. */
  readonly customerId: string | null;
  /** 1 when created, bumped by every write; storage refuses a write based on a stale read. */
  readonly version: number;
}

export const REFUND_STATUSES = ["pending", "succeeded", "canceled"] as const;
export type RefundStatus = (typeof REFUND_STATUSES)[number];

/**
 * Money going back to the payer of a succeeded Payment (API.md 10.6). While `pending` its amount is
 * reserved against the payment, so refunds of one payment never together exceed it; once
 * `succeeded`, the payment's `amountRefunded` includes it; `canceled` frees what it reserved.
 */
export interface Refund {
  readonly id: string;
  readonly projectId: string;
  readonly paymentId: string;
  readonly status: RefundStatus;
  /** In the payment's currency, at most what remained refundable when it was made. */
  readonly amount: Money;
  readonly reason: string | null;
  /** The provider's id of the refund, or null while unknown. */
  readonly providerRefundId: string | null;
  readonly createdAt: Date;
  readonly succeededAt: Date | null;
  readonly canceledAt: Date | null;
  /** When reconciliation next asks the provider about it: set while pending, null once final. Not shown. */
  readonly nextCheckAt: Date | null;
  /** 1 when created, bumped by every write; storage refuses a write based on a stale read. */
  readonly version: number;
}

/**
 * A payer as the merchant knows them (API.md 11.1): at least one of email, phone, externalId when
 * made. `externalId` is unique per project. Erasing (152-FZ) nulls email, phone and name and sets
 * `erasedAt`; the record stays, so payments and subscriptions keep naming it.
 */
export interface CustomerRecord {
  readonly id: string;
  readonly projectId: string;
  readonly email: string | null;
  readonly phone: string | null;
  readonly name: string | null;
  /** The merchant's own id of the customer; not personal data, so kept by an erase. */
  readonly externalId: string | null;
  readonly metadata: Metadata;
  readonly createdAt: Date;
  /** When its personal data was erased (API.md 11.1); null while it was not. */
  readonly erasedAt: Date | null;
  /** 1 when created, bumped by every write; storage refuses a write based on a stale read. */
  readonly version: number;
}
