import {
  cancelSubscriptionRequestSchema,
  createCustomerRequestSchema,
  createInvoiceRequestSchema,
  createRefundRequestSchema,
  createSubscriptionRequestSchema,
  customerEventPayloadSchema,
  customerListResponseSchema,
  customerResourceResponseSchema,
  invoiceEventPayloadSchema,
  invoiceListResponseSchema,
  invoiceResponseSchema,
  methodUpdateResponseSchema,
  paymentEventPayloadSchema,
  paymentListResponseSchema,
  paymentResponseSchema,
  problemSchema,
  refundEventPayloadSchema,
  refundListResponseSchema,
  refundResponseSchema,
  subscriptionEventPayloadSchema,
  subscriptionListResponseSchema,
  subscriptionResponseSchema,
  updateCustomerRequestSchema,
  updateSubscriptionRequestSchema,
} from "@kopek/core";
import { z } from "zod";
import { toComponentSchemas } from "./component-schemas.js";
import {
  EXAMPLE_CUSTOMER_REQUEST,
  EXAMPLE_INVOICE_REQUEST,
  EXAMPLE_REFUND_REQUEST,
  EXAMPLE_SUBSCRIPTION_REQUEST,
} from "./examples.js";
import { healthOperation } from "./operations.js";
import { HEADERS, PARAMETERS } from "./parameters.js";
import { resourcePaths } from "./resource-paths.js";
import { strictSchemas } from "./strict-schemas.js";
import { WEBHOOK_PARAMETERS, webhookOperations } from "./webhooks.js";

export interface OpenApiDocumentOptions {
  /** Where clients reach the server; the document's only `servers` entry. */
  readonly publicUrl: string;
}

/** The `/healthz` and `/readyz` body; the server's own, not core's. */
const healthStatusSchema = z.strictObject({ status: z.literal("ok") }).meta({ id: "HealthStatus" });

/**
 * The OpenAPI 3.1 description of the HTTP API, generated from the zod schemas that validate requests
 * and describe responses in `@kopek/core`, and from core's own rendering of every problem.
 */
export function buildOpenApiDocument({ publicUrl }: OpenApiDocumentOptions): Record<string, unknown> {
  return {
    openapi: "3.1.0",
    info: {
      title: "Kopek API",
      version: "1",
      summary: "Subscriptions and invoices over an embeddable payment core",
      description:
        "Every POST needs an `Idempotency-Key`; a replay answers with the stored response, `Idempotent-Replayed: true` " +
        "and 200 instead of 201. Money is a string of whole minor units. Errors are RFC 9457 problem documents " +
        "(`application/problem+json`) whose `code` is stable.",
      license: { name: "MIT", identifier: "MIT" },
    },
    servers: [{ url: publicUrl.replace(/\/+$/, "") }],
    security: [{ bearerAuth: [] }],
    tags: [
      { name: "subscriptions", description: "Recurring charges of a stored payment method" },
      { name: "invoices", description: "One-off payments through a hosted payment page" },
      {
        name: "payments",
        description:
          "Every attempt to move money: an invoice's payments and each subscription cycle's charge",
      },
      {
        name: "refunds",
        description: "Money going back to the payer of a succeeded payment, in full or in parts",
      },
      {
        name: "customers",
        description:
          "The merchant's payers: named on subscriptions, invoices and payments, and erased on request",
      },
      { name: "operations", description: "Liveness and readiness for orchestrators" },
      {
        name: "webhooks",
        description: "Events POSTed to the project's endpoints, signed per Standard Webhooks",
      },
    ],
    paths: {
      ...resourcePaths({
        collection: "subscriptions",
        tag: "subscriptions",
        singular: "Subscription",
        resource: subscriptionResponseSchema,
        list: subscriptionListResponseSchema,
        listParameters: ["Limit", "Cursor", "CustomerId"],
        create: {
          summary: "Create a subscription: charge its first cycle, or take a paid invoice's payment as it",
          request: createSubscriptionRequestSchema,
          example: EXAMPLE_SUBSCRIPTION_REQUEST,
          extraErrors: [
            "payment_declined",
            "invoice_not_usable",
            "invoice_already_used",
            "customer_not_found",
          ],
        },
        update: {
          summary: "Change a subscription",
          description:
            "`amount` and `period` apply from the next cycle (`nextChargeAt` stays; a new period re-anchors there), " +
            "only on an active subscription whose renewal is not due or under way (else 409 invalid_state); a " +
            "subscription with a receipt needs one that adds up to the new amount. `proration: charge_now` charges " +
            "the prorated difference of a raise at once, `(new − old) × remaining ÷ cycle length` on whole seconds, " +
            "rounded down, as a Payment of kind proration; declined, 402 and nothing changes; no answer, 503 and " +
            "the retry with the same key asks again. `cancelAtPeriodEnd: true` cancels it at the end of the paid " +
            "period (as cancel with `at: period_end`); `false` undoes that before `cancelAt`. A change is answered " +
            "with the subscription and sent as `subscription.updated` (its `data.previous` holds the fields that " +
            "changed, as they were); asking for what is already so changes nothing and sends no event. A canceled " +
            "subscription, or an undo after `cancelAt` passed, is 409 invalid_state.",
          request: updateSubscriptionRequestSchema,
          extraErrors: ["payment_declined", "method_unavailable", "provider_error", "provider_unavailable"],
        },
        cancel: {
          description:
            "Without a body, or `at: now`: a subscription not yet canceled ends now: `status` canceled, " +
            "`canceledAt` set, `cancelReason` requested; no further charge is attempted. `at: period_end`: it " +
            "stays active with `cancelAt` = `nextChargeAt` and `cancelAtPeriodEnd` true, is not charged then and " +
            "becomes canceled at that moment (`subscription.updated` now, `subscription.canceled` then); 409 " +
            "invalid_state for one past due (its period is unpaid), incomplete, or whose renewal is under way. " +
            "An already-canceled one is 409 invalid_state (the same Idempotency-Key replays the first answer).",
          request: cancelSubscriptionRequestSchema,
        },
        pause: {
          description:
            "An active subscription stays active with `pauseAt` = `nextChargeAt` (`subscription.updated`); then " +
            "nothing is charged and it becomes paused (`subscription.paused`). Asked again, or of a paused one, " +
            "nothing changes. 409 invalid_state for one not active, canceled at period end, or whose renewal is " +
            "under way.",
        },
        resume: {
          description:
            "Before `pauseAt`: only clears it (`subscription.updated`). A paused subscription is charged at once " +
            "for a new cycle, `cyclesStarted` + 1, its schedule re-anchored now (`subscription.resumed`); declined: " +
            "402 and it stays paused; no answer: 503, and the retry with the same Idempotency-Key continues the " +
            "same charge (the renewal worker settles it otherwise). 409 invalid_state for one neither paused nor " +
            "pausing.",
        },
        methodUpdate: {
          description:
            "A link (valid 24 hours) to Kopek's page where the payer saves a new method for this subscription " +
            "through the project's provider, with the smallest verification payment it takes, refunded at once. " +
            "On the provider's verified word the subscription's `method` and `methodMask` change " +
            "(`subscription.method_updated`) and a past_due one is charged for its overdue cycle at once; the " +
            "old method is never charged again. A new link replaces the subscription's earlier one. 409 " +
            "invalid_state for one canceled or incomplete; 422 method_unavailable when the provider can save " +
            "no method the project charges later.",
          response: methodUpdateResponseSchema,
        },
      }),
      ...resourcePaths({
        collection: "invoices",
        tag: "invoices",
        singular: "Invoice",
        resource: invoiceResponseSchema,
        list: invoiceListResponseSchema,
        listParameters: ["Limit", "Cursor", "InvoiceStatus", "CustomerId"],
        create: {
          summary: "Create an invoice with a hosted payment page",
          request: createInvoiceRequestSchema,
          example: EXAMPLE_INVOICE_REQUEST,
          extraErrors: ["customer_not_found"],
        },
        cancel: {
          description:
            "An invoice that can still be paid (`created`, not past expiresAt) is canceled: `status` canceled, " +
            "`canceledAt` set. A paid, expired or canceled one is 409 invalid_state.",
        },
      }),
      ...resourcePaths({
        collection: "payments",
        tag: "payments",
        singular: "Payment",
        resource: paymentResponseSchema,
        list: paymentListResponseSchema,
        listParameters: [
          "Limit",
          "Cursor",
          "PaymentInvoiceId",
          "PaymentSubscriptionId",
          "PaymentStatus",
          "CustomerId",
        ],
        refund: {
          summary: "Refund a succeeded payment, in full or in part",
          description:
            "Without `amount`, all that remains refundable (the amount less `amountRefunded` and pending refunds). " +
            "More than remains, or another currency: 422 refund_exceeds_payment; a payment not succeeded: 409 " +
            "invalid_state. Concurrent refunds of one payment never together exceed it. The answer is the refund " +
            "as it stands: succeeded, pending (the provider has not decided or did not answer; reconciled) or " +
            "canceled (the provider refused it, and its amount is refundable again).",
          request: createRefundRequestSchema,
          response: refundResponseSchema,
          example: EXAMPLE_REFUND_REQUEST,
        },
      }),
      ...resourcePaths({
        collection: "refunds",
        tag: "refunds",
        singular: "Refund",
        resource: refundResponseSchema,
        list: refundListResponseSchema,
        listParameters: ["Limit", "Cursor", "RefundPaymentId", "RefundStatus"],
      }),
      ...resourcePaths({
        collection: "customers",
        tag: "customers",
        singular: "Customer",
        resource: customerResourceResponseSchema,
        list: customerListResponseSchema,
        listParameters: ["Limit", "Cursor", "CustomerExternalId", "CustomerEmail"],
        create: {
          summary: "Create a customer",
          request: createCustomerRequestSchema,
          example: EXAMPLE_CUSTOMER_REQUEST,
          extraErrors: ["customer_exists"],
        },
        update: {
          summary: "Change a customer",
          description:
            "The fields sent change; null clears one, and the customer must keep an email, a phone or an " +
            "externalId (else 422). Another customer's externalId: 409 customer_exists naming it. A change is sent " +
            "as `customer.updated`; asking for what is already so changes nothing and sends no event. An erased " +
            "customer takes no email, phone or name again (409 invalid_state).",
          request: updateCustomerRequestSchema,
          extraErrors: ["customer_exists"],
        },
        erase: {
          summary: "Erase a customer's personal data (152-FZ)",
          description:
            "No body, or `{}`. The customer's email, phone and name become null (`erasedAt` set; `externalId` and " +
            "`metadata` are kept), and in storage every receipt contact and inline customer contact of its invoices " +
            'and subscriptions becomes `"erased"`, as does every stored copy of those values in the project\'s ' +
            "events and stored responses. Payments and refunds stay as they are. Sent as `customer.erased`; erasing " +
            "an erased customer changes nothing.",
        },
      }),
      "/healthz": {
        get: healthOperation({
          operationId: "getHealth",
          summary: "Liveness: 200 while the process answers",
          response: healthStatusSchema,
          errors: [],
        }),
      },
      "/readyz": {
        get: healthOperation({
          operationId: "getReadiness",
          summary: "Readiness: 200 when storage answers, else 503",
          response: healthStatusSchema,
          errors: ["storage_unavailable"],
        }),
      },
    },
    webhooks: webhookOperations(),
    components: {
      schemas: strictSchemas(
        toComponentSchemas([
          createSubscriptionRequestSchema,
          createInvoiceRequestSchema,
          subscriptionResponseSchema,
          invoiceResponseSchema,
          subscriptionListResponseSchema,
          invoiceListResponseSchema,
          paymentResponseSchema,
          paymentListResponseSchema,
          problemSchema,
          healthStatusSchema,
          invoiceEventPayloadSchema,
          subscriptionEventPayloadSchema,
          paymentEventPayloadSchema,
          createRefundRequestSchema,
          refundResponseSchema,
          refundListResponseSchema,
          refundEventPayloadSchema,
          cancelSubscriptionRequestSchema,
          updateSubscriptionRequestSchema,
          createCustomerRequestSchema,
          updateCustomerRequestSchema,
          customerResourceResponseSchema,
          customerListResponseSchema,
          customerEventPayloadSchema,
          methodUpdateResponseSchema,
        ]),
      ),
      securitySchemes: {
        bearerAuth: {
          type: "http",
          scheme: "bearer",
          bearerFormat: "kopek_ + 32 base62 characters + 6 characters of checksum",
          description: "The project's API key as `Authorization: Bearer <key>`.",
        },
      },
      parameters: { ...PARAMETERS, ...WEBHOOK_PARAMETERS },
      headers: HEADERS,
    },
  };
}
