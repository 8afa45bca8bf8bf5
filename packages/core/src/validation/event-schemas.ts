import { z } from "zod";
import {
  type CustomerEventType,
  EVENT_TYPES,
  type InvoiceEventType,
  type PaymentEventType,
  type SubscriptionEventType,
} from "../events/domain-event.js";
import {
  customerResourceResponseSchema,
  invoiceResponseSchema,
  paymentResponseSchema,
  subscriptionResponseSchema,
  timestampSchema,
} from "./response-schemas.js";

// The webhook bodies (docs/api.md, Events), one schema per resource; the OpenAPI document's `webhooks`.

const INVOICE_EVENT_TYPES = EVENT_TYPES.filter((t): t is InvoiceEventType => t.startsWith("invoice."));
const SUBSCRIPTION_EVENT_TYPES = EVENT_TYPES.filter((t): t is SubscriptionEventType =>
  t.startsWith("subscription."),
);
const PAYMENT_EVENT_TYPES = EVENT_TYPES.filter((t): t is PaymentEventType => t.startsWith("payment."));

/** A webhook body (`webhookPayload`): the event's type, when it happened, and the resource as GET shows it. */
export function eventPayloadSchema(types: readonly string[], data: z.ZodType, id: string) {
  return z
    .strictObject({
      type: z.enum(types as [string, ...string[]]),
      timestamp: timestampSchema.meta({
        description: "When the change happened (not when this attempt was sent)",
      }),
      data,
    })
    .meta({ id, description: "A webhook body, signed per Standard Webhooks" });
}

export const invoiceEventPayloadSchema = eventPayloadSchema(
  INVOICE_EVENT_TYPES,
  invoiceResponseSchema,
  "InvoiceEvent",
);
/** A subscription event's data: the subscription; `subscription.updated` adds what it was before. */
const subscriptionEventDataSchema = subscriptionResponseSchema
  .extend({
    previous: subscriptionResponseSchema.partial().optional().meta({
      description:
        "subscription.updated only: each field that changed, with the value it had before (API.md 11.3)",
    }),
  })
  .meta({ id: "SubscriptionEventData" });

export const subscriptionEventPayloadSchema = eventPayloadSchema(
  SUBSCRIPTION_EVENT_TYPES,
  subscriptionEventDataSchema,
  "SubscriptionEvent",
);
export const paymentEventPayloadSchema = eventPayloadSchema(
  PAYMENT_EVENT_TYPES,
  paymentResponseSchema,
  "PaymentEvent",
);

const CUSTOMER_EVENT_TYPES = EVENT_TYPES.filter((t): t is CustomerEventType => t.startsWith("customer."));

export const customerEventPayloadSchema = eventPayloadSchema(
  CUSTOMER_EVENT_TYPES,
  customerResourceResponseSchema,
  "CustomerEvent",
);
