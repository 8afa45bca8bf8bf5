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
import { EXAMPLE_CUSTOMER_REQUEST, EXAMPLE_INVOICE_REQUEST, EXAMPLE_REFUND_REQUEST } from "./examples.js";
import { healthOperation } from "./operations.js";
import { HEADERS, PARAMETERS } from "./parameters.js";
import { resourcePaths } from "./resource-paths.js";
import { strictSchemas } from "./strict-schemas.js";
import { subscriptionPaths } from "./subscription-paths.js";
import { WEBHOOK_API_SCHEMAS, webhookApiPaths } from "./webhook-api-paths.js";
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
      ...subscriptionPaths(),
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
      ...webhookApiPaths(),
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
          ...WEBHOOK_API_SCHEMAS,
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
