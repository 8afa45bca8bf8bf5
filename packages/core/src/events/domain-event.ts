import type { CustomerRecord, Invoice, Payment, Refund, Subscription } from "../domain/model.js";
import {
  presentCustomer,
  presentInvoice,
  presentPayment,
  presentRefund,
  presentSubscription,
} from "../domain/presenters.js";
import type { IdGenerator } from "../ports/id-generator.js";

/** What a webhook can tell a merchant (API.md 6); every one is caused by one stored state change. */
export const EVENT_TYPES = [
  "invoice.paid",
  "invoice.expired",
  "invoice.canceled",
  "subscription.created",
  "subscription.activated",
  "subscription.renewed",
  "subscription.past_due",
  "subscription.canceled",
  "subscription.updated",
  "subscription.trial_will_end",
  "subscription.paused",
  "subscription.resumed",
  "subscription.method_updated",
  "payment.canceled",
  "refund.succeeded",
  "refund.canceled",
  "customer.created",
  "customer.updated",
  "customer.erased",
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/**
 * One event, written in the same atomic step as the change that caused it (the outbox). Its id is the
 * `webhook-id` of every delivery attempt, so a receiver deduplicates on it.
 */
export interface DomainEvent {
  readonly id: string;
  readonly projectId: string;
  readonly type: EventType;
  readonly createdAt: Date;
  /** The resource as the API presents it at `createdAt`. */
  readonly data: Readonly<Record<string, unknown>>;
}

export type InvoiceEventType = Extract<EventType, `invoice.${string}`>;
export type SubscriptionEventType = Extract<EventType, `subscription.${string}`>;
export type PaymentEventType = Extract<EventType, `payment.${string}`>;
export type RefundEventType = Extract<EventType, `refund.${string}`>;
export type CustomerEventType = Extract<EventType, `customer.${string}`>;

export function customerEvent(
  type: CustomerEventType,
  customer: CustomerRecord,
  at: Date,
  ids: IdGenerator,
): DomainEvent {
  return {
    id: ids.newId(),
    projectId: customer.projectId,
    type,
    createdAt: at,
    data: presentCustomer(customer),
  };
}

export function invoiceEvent(
  type: InvoiceEventType,
  invoice: Invoice,
  at: Date,
  ids: IdGenerator,
): DomainEvent {
  return {
    id: ids.newId(),
    projectId: invoice.projectId,
    type,
    createdAt: at,
    data: presentInvoice(invoice, at),
  };
}

export function subscriptionEvent(
  type: SubscriptionEventType,
  subscription: Subscription,
  at: Date,
  ids: IdGenerator,
): DomainEvent {
  return {
    id: ids.newId(),
    projectId: subscription.projectId,
    type,
    createdAt: at,
    data: presentSubscription(subscription),
  };
}

/**
 * `subscription.updated` (API.md 11.3): the subscription as it is now, and in `data.previous` the
 * presented fields that changed, with the values they had before.
 */
export function subscriptionUpdatedEvent(
  before: Subscription,
  after: Subscription,
  at: Date,
  ids: IdGenerator,
): DomainEvent {
  const now = presentSubscription(after);
  const then: Readonly<Record<string, unknown>> = presentSubscription(before);
  const previous = Object.fromEntries(
    Object.entries(now)
      .filter(([field, value]) => JSON.stringify(value) !== JSON.stringify(then[field]))
      .map(([field]) => [field, then[field]]),
  );
  return {
    id: ids.newId(),
    projectId: after.projectId,
    type: "subscription.updated",
    createdAt: at,
    data: { ...now, previous },
  };
}

export function paymentEvent(
  type: PaymentEventType,
  payment: Payment,
  at: Date,
  ids: IdGenerator,
): DomainEvent {
  return {
    id: ids.newId(),
    projectId: payment.projectId,
    type,
    createdAt: at,
    data: presentPayment(payment),
  };
}

export function refundEvent(type: RefundEventType, refund: Refund, at: Date, ids: IdGenerator): DomainEvent {
  return {
    id: ids.newId(),
    projectId: refund.projectId,
    type,
    createdAt: at,
    data: presentRefund(refund),
  };
}

/** The webhook body (Standard Webhooks' recommended shape): `{ type, timestamp, data }`. */
export function webhookPayload(event: DomainEvent): string {
  return JSON.stringify({ type: event.type, timestamp: event.createdAt.toISOString(), data: event.data });
}
