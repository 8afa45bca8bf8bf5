import { z } from "zod";
import { isPeriodWithinOneYear } from "../domain/billing-period.js";
import { PAYMENT_METHODS, PERIOD_UNITS } from "../domain/model.js";
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
  MAX_REFUND_REASON_LENGTH,
  MAX_RETURN_URL_LENGTH,
  PRINTABLE_ASCII,
} from "./limits.js";
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

export const createSubscriptionRequestSchema = z
  .strictObject({
    amount: moneySchema,
    period: periodSchema,
    method: paymentMethodSchema,
    providerMethodRef: providerMethodRefSchema,
    description: descriptionSchema.optional(),
    metadata: metadataSchema.optional(),
  })
  .meta({ id: "CreateSubscriptionRequest" });

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
export type CreateSubscriptionRequest = z.infer<typeof createSubscriptionRequestSchema>;
export type CreateInvoiceRequest = z.infer<typeof createInvoiceRequestSchema>;
