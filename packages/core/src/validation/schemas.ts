import { z } from "zod";
import { isPeriodWithinOneYear } from "../domain/billing-period.js";
import {
  AMOUNT_PATTERN,
  CURRENCY_PATTERN,
  E164_PATTERN,
  MAX_COMMENT_LENGTH,
  MAX_DESCRIPTION_LENGTH,
  MAX_EMAIL_LENGTH,
  MAX_EXTERNAL_ID_LENGTH,
  MAX_METADATA_KEY_LENGTH,
  MAX_METADATA_KEYS,
  MAX_METADATA_VALUE_LENGTH,
  MAX_METHOD_REF_LENGTH,
  MAX_PERIOD_COUNT,
  MAX_RECEIPT_ITEM_DESCRIPTION_LENGTH,
  MAX_RECEIPT_ITEMS,
  MAX_RECEIPT_TAX_SYSTEM_CODE,
  MAX_RECEIPT_VAT_CODE,
  MAX_REFUND_REASON_LENGTH,
  MAX_RETURN_URL_LENGTH,
  MIN_RECEIPT_TAX_SYSTEM_CODE,
  MIN_RECEIPT_VAT_CODE,
  PRINTABLE_ASCII,
  RECEIPT_QUANTITY_PATTERN,
} from "../domain/limits.js";
import {
  PAYMENT_METHODS,
  PERIOD_UNITS,
  RECEIPT_PAYMENT_MODES,
  RECEIPT_PAYMENT_SUBJECTS,
} from "../domain/model.js";
import { quantityInThousandths } from "../domain/receipt-total.js";
import { normalizedUrl } from "./normalized-url.js";

/**
 * The request schemas of API.md 5. They check structure and each field on its own; rules that need
 * context (the provider's currencies, the clock) or span fields live in `validate.ts`, so that a
 * body gets every problem reported at once. The OpenAPI document is generated from these schemas.
 */

export const amountSchema = z
  .string()
  .regex(AMOUNT_PATTERN, {
    error: "must be a string of digits from 1 to 999999999999999999, with no sign, dot or leading zero",
  })
  .meta({ description: "Whole minor units of the currency, as a string of digits", example: "149900" });

export const moneySchema = z
  .strictObject({
    amount: amountSchema,
    currency: z
      .string()
      .regex(CURRENCY_PATTERN, { error: "must be three upper-case letters (ISO 4217)" })
      .meta({ description: "ISO 4217 code the project's provider supports", example: "RUB" }),
  })
  .meta({ id: "Money" });

export const periodSchema = z
  .strictObject({
    unit: z.enum(PERIOD_UNITS),
    count: z.int().min(1),
  })
  // Only judges a count that is otherwise valid, so `count: 0` is reported once, as too_small.
  .refine(
    (period) => !(Number.isInteger(period.count) && period.count >= 1) || isPeriodWithinOneYear(period),
    {
      path: ["count"],
      params: { code: "too_large" },
      error: `the whole period must be at most one year (${MAX_PERIOD_COUNT.day} days, ${MAX_PERIOD_COUNT.week} weeks, ${MAX_PERIOD_COUNT.month} months or ${MAX_PERIOD_COUNT.year} year)`,
    },
  )
  .meta({ id: "Period" });

export const paymentMethodSchema = z.enum(PAYMENT_METHODS).meta({ id: "PaymentMethod" });

export const metadataSchema = z
  .record(z.string().min(1).max(MAX_METADATA_KEY_LENGTH), z.string().max(MAX_METADATA_VALUE_LENGTH))
  .refine((value) => Object.keys(value).length <= MAX_METADATA_KEYS, {
    params: { code: "too_large" },
    error: `must have at most ${MAX_METADATA_KEYS} keys`,
  })
  .meta({
    id: "Metadata",
    description: `Up to ${MAX_METADATA_KEYS} string keys (1–${MAX_METADATA_KEY_LENGTH} characters) with string values (≤ ${MAX_METADATA_VALUE_LENGTH})`,
  });

export const providerMethodRefSchema = z
  .string()
  .min(1)
  .max(MAX_METHOD_REF_LENGTH)
  .regex(PRINTABLE_ASCII, { error: "must contain printable ASCII characters only" })
  .meta({ description: "The provider's token for the stored method. Never a card number; never returned." });

export const descriptionSchema = z.string().max(MAX_DESCRIPTION_LENGTH);

export const receiptQuantitySchema = z
  .string()
  .regex(RECEIPT_QUANTITY_PATTERN, {
    error: 'must be a decimal string such as "1" or "0.5", with at most 3 decimals and no sign or exponent',
  })
  // Only judges a well-formed quantity, so a malformed one is reported once, as invalid_format.
  .refine((quantity) => (quantityInThousandths(quantity) ?? 1n) > 0n, {
    params: { code: "too_small" },
    error: "must be greater than 0",
  })
  .meta({ description: "How many units, a decimal string > 0 with at most 3 decimals", example: "1.5" });

export const receiptCustomerSchema = z
  .strictObject({
    email: z.email({ error: "must be a valid e-mail address" }).max(MAX_EMAIL_LENGTH).nullable().optional(),
    phone: z
      .string()
      .regex(E164_PATTERN, { error: "must be an E.164 number such as +79991234567" })
      .nullable()
      .optional(),
  })
  .refine((customer) => (customer.email ?? null) !== null || (customer.phone ?? null) !== null, {
    params: { code: "required" },
    error: "must have an email or a phone, where the receipt is sent",
  })
  .meta({ id: "ReceiptCustomerInput", description: "Where the receipt is sent: an email, a phone, or both" });

export const receiptItemSchema = z
  .strictObject({
    description: z.string().min(1).max(MAX_RECEIPT_ITEM_DESCRIPTION_LENGTH),
    quantity: receiptQuantitySchema,
    // The price of one unit, in the charged amount's currency.
    amount: moneySchema,
    vatCode: z.int().min(MIN_RECEIPT_VAT_CODE).max(MAX_RECEIPT_VAT_CODE),
    paymentSubject: z.enum(RECEIPT_PAYMENT_SUBJECTS),
    paymentMode: z.enum(RECEIPT_PAYMENT_MODES),
  })
  .meta({ id: "ReceiptItemInput" });

/** API.md 10.7: a 54-FZ receipt. Its items' total is checked against the amount in `validate.ts`. */
export const receiptSchema = z
  .strictObject({
    customer: receiptCustomerSchema,
    taxSystemCode: z
      .int()
      .min(MIN_RECEIPT_TAX_SYSTEM_CODE)
      .max(MAX_RECEIPT_TAX_SYSTEM_CODE)
      .nullable()
      .optional(),
    items: z.array(receiptItemSchema).min(1).max(MAX_RECEIPT_ITEMS),
  })
  .meta({
    id: "ReceiptInput",
    description:
      "A 54-FZ fiscal receipt, sent to the provider with every charge it covers. The items (quantity × unit amount) must add up to the amount exactly.",
  });

/** The id of a customer of the project (API.md 11.1). */
export const customerIdSchema = z.uuid({ error: "must be the id of a customer (a UUID)" });

/**
 * A subscription is created with a stored method (`method` + `providerMethodRef`) or from a paid
 * invoice whose method was saved (`invoiceId`, API.md 10.5): exactly one of the two shapes, which
 * `validateCreateSubscription` checks (so every problem is reported at once, with clear pointers).
 */
export const createSubscriptionRequestSchema = z
  .strictObject({
    amount: moneySchema,
    period: periodSchema,
    method: paymentMethodSchema
      .optional()
      .meta({ description: "Required with providerMethodRef; not with invoiceId" }),
    providerMethodRef: providerMethodRefSchema.optional(),
    invoiceId: z.uuid({ error: "must be the id of an invoice (a UUID)" }).optional().meta({
      description:
        "A paid invoice of this project whose method was saved (savePaymentMethod), for the same amount: its payment is the first cycle. Instead of method and providerMethodRef.",
    }),
    description: descriptionSchema.optional(),
    metadata: metadataSchema.optional(),
    receipt: receiptSchema.nullable().optional(),
    trialEnd: z.iso
      .datetime({ offset: true, error: "must be an ISO 8601 timestamp, e.g. 2026-11-22T09:30:00.000Z" })
      .optional()
      .meta({
        description:
          "A trial until this moment, 1 hour to 365 days ahead (API.md 11.6): the method is checked and described but not charged; status trialing until the first charge at trialEnd. Not with invoiceId.",
      }),
    customerId: customerIdSchema.optional().meta({
      description:
        "A customer of this project it bills (API.md 11.1); not with invoiceId (the invoice's customer is taken)",
    }),
  })
  .meta({
    id: "CreateSubscriptionRequest",
    // The two shapes, for the OpenAPI document; `validateCreateSubscription` enforces the same.
    oneOf: [
      {
        required: ["method", "providerMethodRef"],
        properties: { method: true, providerMethodRef: true, invoiceId: false },
      },
      {
        required: ["invoiceId"],
        properties: { invoiceId: true, method: false, providerMethodRef: false, customerId: false },
      },
    ],
  });

export const customerSchema = z
  .strictObject({
    email: z.email({ error: "must be a valid e-mail address" }).max(MAX_EMAIL_LENGTH),
    phone: z
      .string()
      .regex(E164_PATTERN, { error: "must be an E.164 number such as +79991234567" })
      .nullable()
      .optional(),
    externalId: z.string().min(1).max(MAX_EXTERNAL_ID_LENGTH).nullable().optional(),
  })
  .meta({ id: "CustomerInput" });

export const createInvoiceRequestSchema = z
  .strictObject({
    amount: moneySchema,
    method: paymentMethodSchema.optional(),
    methods: z
      .array(paymentMethodSchema)
      .min(1)
      .refine((methods) => new Set(methods).size === methods.length, {
        params: { code: "duplicate" },
        error: "must not repeat a method",
      })
      .optional(),
    description: descriptionSchema.optional(),
    comment: z.string().max(MAX_COMMENT_LENGTH).nullable().optional(),
    customer: customerSchema.nullable().optional(),
    metadata: metadataSchema.optional(),
    returnUrl: z
      .url({ protocol: /^https?$/, error: "must be an absolute http: or https: URL" })
      // Stored and emitted in its ASCII form; the limit applies to that form.
      .overwrite(normalizedUrl)
      .max(MAX_RETURN_URL_LENGTH)
      .nullable()
      .optional(),
    expiresAt: z.iso
      .datetime({ offset: true, error: "must be an ISO 8601 timestamp, e.g. 2026-11-22T09:30:00.000Z" })
      .optional(),
    savePaymentMethod: z.boolean().optional().meta({
      description:
        "Ask the provider to save the payer's method, so a subscription can be made from the paid invoice; only methods the provider can save are offered. Default false.",
    }),
    receipt: receiptSchema.nullable().optional(),
    customerId: customerIdSchema
      .optional()
      .meta({ description: "A customer of this project it bills (API.md 11.1); not with customer" }),
  })
  .meta({ id: "CreateInvoiceRequest" });

/** API.md 10.6: without `amount`, what remains refundable of the payment. */
export const createRefundRequestSchema = z
  .strictObject({
    amount: moneySchema.optional().meta({
      description: "At most what remains refundable, in the payment's currency; default: all of it",
    }),
    reason: z.string().max(MAX_REFUND_REASON_LENGTH).optional(),
  })
  .meta({ id: "CreateRefundRequest" });

export type CreateRefundRequest = z.infer<typeof createRefundRequestSchema>;

export const cancelSubscriptionRequestSchema = z
  .strictObject({
    at: z.enum(["now", "period_end"]).optional().meta({
      description:
        "now (default): it ends at once. period_end: it stays active until nextChargeAt, is not charged then, and becomes canceled (API.md 11.2)",
    }),
  })
  .meta({ id: "CancelSubscriptionRequest" });

export type CancelSubscriptionRequest = z.infer<typeof cancelSubscriptionRequestSchema>;

export const updateSubscriptionRequestSchema = z
  .strictObject({
    amount: moneySchema.optional().meta({
      description:
        "The price from the next cycle on (API.md 11.3), in the subscription's currency; only an active subscription's",
    }),
    period: periodSchema.optional().meta({
      description: "The period from the next cycle on: the schedule re-anchors at nextChargeAt",
    }),
    description: descriptionSchema.optional(),
    metadata: metadataSchema.optional().meta({ description: "Replaces the metadata as a whole" }),
    receipt: receiptSchema.nullable().optional().meta({
      description:
        "The receipt of every later charge; its items must add up to the (new) amount. null: no receipts from now on",
    }),
    proration: z.enum(["none", "charge_now"]).optional().meta({
      description:
        "charge_now: with a higher amount and the same period, the difference for the rest of the current cycle is charged at once from the saved method, rounded down (a Payment of kind proration); none (the default): nothing is charged now",
    }),
    cancelAtPeriodEnd: z.boolean().optional().meta({
      description:
        "true: cancel at the end of the paid period (as cancel with at: period_end); false: undo such a cancel before it takes effect",
    }),
  })
  .meta({ id: "UpdateSubscriptionRequest" });

export type UpdateSubscriptionRequest = z.infer<typeof updateSubscriptionRequestSchema>;

type SubscriptionBody = z.infer<typeof createSubscriptionRequestSchema>;
type SubscriptionCommon = Omit<SubscriptionBody, "method" | "providerMethodRef" | "invoiceId">;

/** A valid create-subscription body: one of its two shapes (API.md 5.3, 10.5). */
export type CreateSubscriptionRequest =
  | (SubscriptionCommon & {
      readonly method: NonNullable<SubscriptionBody["method"]>;
      readonly providerMethodRef: string;
      readonly invoiceId?: never;
    })
  | (SubscriptionCommon & {
      readonly invoiceId: string;
      readonly method?: never;
      readonly providerMethodRef?: never;
    });
export type CreateInvoiceRequest = z.infer<typeof createInvoiceRequestSchema>;
export type ReceiptRequest = z.infer<typeof receiptSchema>;
