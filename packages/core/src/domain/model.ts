/** The values and resources of Kopek's domain, shared by use cases, ports and adapters. */

/** Payment methods a request may name (API.md 5.3, 5.4). */
export const PAYMENT_METHODS = ["card", "sbp"] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

export const PERIOD_UNITS = ["day", "week", "month", "year"] as const;
export type PeriodUnit = (typeof PERIOD_UNITS)[number];

/** Money: a string of whole minor units (`"149900"`) and an ISO 4217 code. Never a float. */
export interface Money {
  readonly amount: string;
  readonly currency: string;
}

export interface Period {
  readonly unit: PeriodUnit;
  readonly count: number;
}

export type Metadata = Readonly<Record<string, string>>;

export const SUBSCRIPTION_STATUSES = ["active", "past_due", "canceled"] as const;
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
  readonly lastChargedAt: Date;
  readonly cyclesStarted: number;
  readonly createdAt: Date;
  readonly canceledAt: Date | null;
  readonly cancelReason: CancelReason | null;
  /** The cycle due at `nextChargeAt` (anchor + nextCycle periods); 1 after creation. */
  readonly nextCycle: number;
  /** When the renewal worker acts next: `nextChargeAt`, or the next retry while past due. */
  readonly nextAttemptAt: Date;
  /** Declined charges of the unpaid cycle (dunning); 0 when active. */
  readonly declines: number;
  readonly firstDeclinedAt: Date | null;
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
  /** 1 when created, bumped by every write; storage refuses a write based on a stale read. */
  readonly version: number;
}

/** How a project's payment provider is configured (projects file, CLI, storage). */
export type ProviderSettings = SandboxProviderSettings | HttpProviderSettings;

/** The sandbox, in the server's process. */
export interface SandboxProviderSettings {
  readonly kind: "sandbox";
  /** Whether stored methods can be charged (API.md 7). */
  readonly storedMethodCharge: boolean;
}

/** A provider service reached over HTTP (`@kopek/provider-http`), e.g. `kopek sandbox-provider`. */
export interface HttpProviderSettings {
  readonly kind: "http";
  /** Base URL of the service. */
  readonly url: string;
  /** Whether stored methods can be charged through it. */
  readonly storedMethodCharge: boolean;
  /** How long a call may take before it counts as an outage; null: the adapter's default. */
  readonly timeoutMs: number | null;
}

export interface Project {
  readonly id: string;
  readonly name: string;
  readonly provider: ProviderSettings;
  readonly createdAt: Date;
}
