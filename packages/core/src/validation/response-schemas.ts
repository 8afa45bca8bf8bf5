import { z } from "zod";
import type { ProblemBody } from "../api/problem.js";
import { FIELD_ISSUE_CODES, type KopekErrorCode } from "../domain/errors.js";
import { AMOUNT_OR_ZERO_PATTERN } from "../domain/limits.js";
import {
  CANCEL_REASONS,
  INVOICE_STATUSES,
  PAYMENT_FAILURE_CODES,
  PAYMENT_KINDS,
  PAYMENT_STATUSES,
  SUBSCRIPTION_STATUSES,
} from "../domain/model.js";
import type { CustomerView, InvoiceView, PaymentView, SubscriptionView } from "../domain/presenters.js";
import { receiptResponseSchema } from "./receipt-response-schema.js";
import { metadataSchema, moneySchema, paymentMethodSchema, periodSchema } from "./schemas.js";

export { receiptResponseSchema };

/**
 * The response bodies of API.md 4 and 5, written once. The OpenAPI document (and through it the typed
 * client) is generated from these schemas; the type checks at the bottom tie them to the presenters
 * and to `ProblemBody`, so the schemas cannot drift from what the code really sends.
 */

export const timestampSchema = z.iso
  .datetime({ precision: 3, error: "must be an ISO 8601 UTC timestamp with milliseconds" })
  .meta({
    id: "Timestamp",
    description: "ISO 8601 UTC with millisecond precision",
    example: "2026-11-22T09:30:00.000Z",
  });

export const idSchema = z
  .uuid({ version: "v7" })
  .meta({ id: "Id", description: "A lower-case UUID version 7" });

export const subscriptionResponseSchema = z
  .strictObject({
    id: idSchema,
    status: z.enum(SUBSCRIPTION_STATUSES),
    amount: moneySchema,
    period: periodSchema,
    description: z.string(),
    method: paymentMethodSchema,
    methodMask: z.string().meta({ example: "2200 70** **** 1234" }),
    metadata: metadataSchema,
    startedAt: timestampSchema,
    nextChargeAt: timestampSchema,
    lastChargedAt: timestampSchema.nullable(),
    cyclesStarted: z.int().min(0).meta({
      description: "Cycles charged; 0 while incomplete or trialing",
    }),
    createdAt: timestampSchema,
    canceledAt: timestampSchema
      .nullable()
      .meta({ description: "When it was canceled; null while it is not" }),
    cancelReason: z.enum(CANCEL_REASONS).nullable().meta({
      description:
        "requested (canceled through the API) or payment_failed (dunning ran out); null while not canceled",
    }),
    cancelAt: timestampSchema.nullable().meta({
      description:
        "When a cancel at the end of the paid period takes effect (the nextChargeAt it was asked at): no charge is made then and the subscription becomes canceled; null when none is scheduled",
    }),
    trialEnd: timestampSchema.nullable().meta({
      description: "When its trial ends and its first charge is due (API.md 11.6); null without a trial",
    }),
    cancelAtPeriodEnd: z.boolean().meta({
      description: "Whether it is (or was) canceled at the end of a paid period: cancelAt is set",
    }),
    pauseAt: timestampSchema.nullable().meta({
      description:
        "When a pause takes effect (the nextChargeAt it was asked at, API.md 11.4): no charge is made then and the subscription becomes paused; kept while paused; null when none is scheduled or once resumed",
    }),
    receipt: receiptResponseSchema
      .nullable()
      .meta({ description: "The 54-FZ receipt sent with every cycle's charge; null when none" }),
    customerId: idSchema
      .nullable()
      .meta({ description: "The project's customer it bills (API.md 11.1); null when none" }),
  })
  .meta({ id: "Subscription" });

export const customerResponseSchema = z
  .strictObject({
    email: z.string(),
    phone: z.string().nullable(),
    externalId: z.string().nullable(),
  })
  .meta({ id: "Customer" });

export const invoiceResponseSchema = z
  .strictObject({
    id: idSchema,
    status: z.enum(INVOICE_STATUSES),
    amount: moneySchema,
    description: z.string(),
    comment: z.string().nullable(),
    customer: customerResponseSchema.nullable(),
    metadata: metadataSchema,
    paymentUrl: z.url().meta({ description: "Where the payer pays" }),
    returnUrl: z.url().nullable(),
    method: paymentMethodSchema.nullable().meta({ description: "The method used to pay; null until paid" }),
    pinnedMethod: paymentMethodSchema.nullable(),
    createdAt: timestampSchema,
    expiresAt: timestampSchema,
    paidAt: timestampSchema.nullable(),
    canceledAt: timestampSchema
      .nullable()
      .meta({ description: "When it was canceled; null while it is not" }),
    savedMethod: z
      .strictObject({
        method: paymentMethodSchema,
        methodMask: z
          .string()
          .nullable()
          .meta({ description: "The masked card or account; null when the provider did not tell" }),
      })
      .nullable()
      .meta({
        id: "SavedMethod",
        description:
          "The payer's method the provider saved when the invoice was paid (savePaymentMethod): a subscription can be created from the invoice. Null otherwise. The provider's token is never shown.",
      }),
    receipt: receiptResponseSchema
      .nullable()
      .meta({ description: "The 54-FZ receipt sent with its payment; null when none" }),
    attempts: z.int().nonnegative().meta({
      description:
        "Payment attempts made on the hosted page, all methods (each is a Payment with this invoiceId)",
    }),
    maxAttempts: z.int().positive().meta({
      description:
        "How many attempts the hosted page makes for one invoice. Once attempts reaches it and none is pending, the page refuses a new one and says the invoice cannot be paid there; status stays created until it expires or is canceled",
    }),
    customerId: idSchema
      .nullable()
      .meta({ description: "The project's customer it bills (API.md 11.1); null when none" }),
  })
  .meta({ id: "Invoice" });

export const paymentResponseSchema = z
  .strictObject({
    id: idSchema,
    status: z.enum(PAYMENT_STATUSES).meta({
      description: "pending until the provider's verified word; then succeeded or canceled (final)",
    }),
    amount: moneySchema,
    amountRefunded: z
      .strictObject({
        amount: z.string().regex(AMOUNT_OR_ZERO_PATTERN),
        currency: moneySchema.shape.currency,
      })
      .meta({ description: 'Refunded so far, in the payment\'s currency; amount "0" when none' }),
    method: paymentMethodSchema,
    methodMask: z
      .string()
      .nullable()
      .meta({ description: "The masked card or account; null when the provider did not tell" }),
    invoiceId: idSchema
      .nullable()
      .meta({ description: "The invoice it pays; null for a subscription's charge" }),
    subscriptionId: idSchema
      .nullable()
      .meta({ description: "The subscription it charges; null for an invoice's payment" }),
    cycle: z
      .int()
      .min(1)
      .nullable()
      .meta({ description: "The subscription cycle it charges (1 = the first); null for an invoice" }),
    kind: z.enum(PAYMENT_KINDS).meta({
      description:
        "cycle: a subscription's charge of a cycle; invoice: an invoice's payment; proration: the prorated difference of a price raised mid-cycle (11.3); verification: a charge proving a new method, refunded at once (11.5)",
    }),
    provider: z.string().meta({ description: "The provider kind that moves it, e.g. sandbox" }),
    providerPaymentId: z.string().nullable().meta({ description: "The provider's id; null while unknown" }),
    failureCode: z
      .enum(PAYMENT_FAILURE_CODES)
      .nullable()
      .meta({ description: "Why it was canceled; null otherwise" }),
    createdAt: timestampSchema,
    succeededAt: timestampSchema.nullable(),
    canceledAt: timestampSchema.nullable(),
    customerId: idSchema
      .nullable()
      .meta({ description: "The customer of its invoice or subscription (API.md 11.1); null when none" }),
  })
  .meta({ id: "Payment" });

/** A page of a list (API.md 6): newest first; `nextCursor` fetches the next page, null on the last. */
export function listResponseSchema(item: z.ZodType, id: string, name: string) {
  return z
    .strictObject({
      data: z
        .array(item)
        .max(100)
        .meta({ description: `The ${name}, newest first` }),
      nextCursor: z.string().nullable().meta({
        description: "Pass as `cursor` for the next (older) page; null on the last page. Opaque.",
      }),
    })
    .meta({ id });
}

export const subscriptionListResponseSchema = listResponseSchema(
  subscriptionResponseSchema,
  "SubscriptionList",
  "subscriptions",
);
export const invoiceListResponseSchema = listResponseSchema(invoiceResponseSchema, "InvoiceList", "invoices");
export const paymentListResponseSchema = listResponseSchema(paymentResponseSchema, "PaymentList", "payments");

/** A customer (API.md 11.1): every field present, null when absent or erased. */
export const customerResourceResponseSchema = z
  .strictObject({
    id: idSchema,
    email: z.string().nullable(),
    phone: z.string().nullable(),
    name: z.string().nullable(),
    externalId: z
      .string()
      .nullable()
      .meta({ description: "The merchant's own id of the customer, unique per project; kept by an erase" }),
    metadata: metadataSchema,
    createdAt: timestampSchema,
    erasedAt: timestampSchema.nullable().meta({
      description: "When its personal data (email, phone, name, receipt contacts) was erased; null while not",
    }),
  })
  .meta({ id: "CustomerResource" });

export const customerListResponseSchema = listResponseSchema(
  customerResourceResponseSchema,
  "CustomerList",
  "customers",
);

/** Every `code` a problem document can carry, in the order of API.md 4's table. */
export const PROBLEM_CODES = [
  "invalid_json",
  "bad_request",
  "request_timeout",
  "headers_too_large",
  "idempotency_key_missing",
  "idempotency_key_invalid",
  "unauthorized",
  "payment_declined",
  "not_found",
  "method_not_allowed",
  "idempotency_request_in_progress",
  "invalid_state",
  "payload_too_large",
  "unsupported_media_type",
  "validation_failed",
  "idempotency_key_reused",
  "method_unavailable",
  "refund_exceeds_payment",
  "invoice_not_usable",
  "invoice_already_used",
  "customer_exists",
  "customer_not_found",
  "url_not_allowed",
  "rate_limited",
  "internal_error",
  "provider_error",
  "provider_unavailable",
  "storage_unavailable",
] as const satisfies readonly KopekErrorCode[];

export const fieldIssueSchema = z
  .strictObject({
    pointer: z.string().meta({
      description:
        "JSON Pointer into the request body as a URI fragment; for a list's query parameters, `#/` and the parameter name (`#/limit`)",
      example: "#/customer/email",
    }),
    code: z.enum(FIELD_ISSUE_CODES),
    detail: z.string(),
  })
  .meta({ id: "FieldIssue" });

export const problemSchema = z
  .strictObject({
    type: z.string().meta({
      description: "URI of the problem type, ending in the code",
      example: "urn:kopek:problem:validation_failed",
    }),
    title: z.string(),
    status: z.int().min(400).max(599),
    code: z.enum(PROBLEM_CODES).meta({ description: "The stable machine-readable value clients switch on" }),
    detail: z.string(),
    requestId: z.string(),
    errors: z.array(fieldIssueSchema).optional().meta({ description: "Present on validation_failed only" }),
  })
  .meta({ id: "Problem", description: "An RFC 9457 problem document" });

export type SubscriptionResponse = z.output<typeof subscriptionResponseSchema>;
export type InvoiceResponse = z.output<typeof invoiceResponseSchema>;
export type SubscriptionListResponse = z.output<typeof subscriptionListResponseSchema>;
export type InvoiceListResponse = z.output<typeof invoiceListResponseSchema>;
export type PaymentResponse = z.output<typeof paymentResponseSchema>;
export type PaymentListResponse = z.output<typeof paymentListResponseSchema>;
export type ProblemResponse = z.output<typeof problemSchema>;
export type CustomerResourceResponse = z.output<typeof customerResourceResponseSchema>;
export type CustomerListResponse = z.output<typeof customerListResponseSchema>;

// Compile-time ties: each pair must be mutually assignable, or this file stops compiling.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Mutable<T> = { -readonly [K in keyof T]: T[K] extends object ? Mutable<T[K]> : T[K] };
const tiedToPresenters: [
  Same<Mutable<SubscriptionView>, SubscriptionResponse>,
  Same<Mutable<InvoiceView>, InvoiceResponse>,
  Same<Mutable<PaymentView>, PaymentResponse>,
  Same<Mutable<CustomerView>, CustomerResourceResponse>,
  Same<Exclude<KopekErrorCode, (typeof PROBLEM_CODES)[number]>, never>,
] = [true, true, true, true, true];
const tiedToProblemBody: Same<keyof ProblemBody, keyof ProblemResponse> = true;
void tiedToPresenters;
void tiedToProblemBody;
