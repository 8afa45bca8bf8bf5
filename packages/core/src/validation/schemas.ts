import { z } from "zod";
import { isPeriodWithinOneYear } from "../billing-period.js";
import { containsCardNumber } from "../card-guard.js";
import { PAYMENT_METHODS, PERIOD_UNITS } from "../domain.js";

/**
 * The request schemas of API.md 5. They check structure and each field on its own; rules that need
 * context (the provider's currencies, the clock) or span fields live in `validate.ts`, so that a
 * body gets every problem reported at once. The OpenAPI document is generated from these schemas.
 */

export const amountSchema = z
  .string()
  .regex(/^[1-9][0-9]{0,17}$/, {
    error: "must be a string of digits from 1 to 999999999999999999, with no sign, dot or leading zero",
  })
  .meta({ description: "Whole minor units of the currency, as a string of digits", example: "149900" });

export const moneySchema = z
  .strictObject({
    amount: amountSchema,
    currency: z
      .string()
      .regex(/^[A-Z]{3}$/, { error: "must be three upper-case letters (ISO 4217)" })
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
      error: "the whole period must be at most one year (365 days, 52 weeks, 12 months or 1 year)",
    },
  )
  .meta({ id: "Period" });

export const paymentMethodSchema = z.enum(PAYMENT_METHODS).meta({ id: "PaymentMethod" });

export const metadataSchema = z
  .record(z.string().min(1).max(40), z.string().max(500))
  .refine((value) => Object.keys(value).length <= 50, {
    params: { code: "too_large" },
    error: "must have at most 50 keys",
  })
  .meta({ id: "Metadata", description: "Up to 50 string keys (1–40 characters) with string values (≤ 500)" });

export const providerMethodRefSchema = z
  .string()
  .min(1)
  .max(255)
  .regex(/^[\x20-\x7E]*$/, { error: "must contain printable ASCII characters only" })
  .refine((ref) => !containsCardNumber(ref), {
    params: { code: "card_number_not_allowed" },
    error: "must be the provider's token for the stored method, never a card number",
  })
  .meta({ description: "The provider's token for the stored method. Never a card number; never returned." });

export const descriptionSchema = z.string().max(500);

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
    email: z.email({ error: "must be a valid e-mail address" }).max(254),
    phone: z
      .string()
      .regex(/^\+[1-9][0-9]{1,14}$/, { error: "must be an E.164 number such as +79991234567" })
      .nullable()
      .optional(),
    externalId: z.string().min(1).max(255).nullable().optional(),
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
    comment: z.string().max(1000).nullable().optional(),
    customer: customerSchema.nullable().optional(),
    metadata: metadataSchema.optional(),
    returnUrl: z
      .url({ protocol: /^https?$/, error: "must be an absolute http: or https: URL" })
      .max(2048)
      .nullable()
      .optional(),
    expiresAt: z.iso
      .datetime({ offset: true, error: "must be an ISO 8601 timestamp, e.g. 2026-11-22T09:30:00.000Z" })
      .optional(),
  })
  .meta({ id: "CreateInvoiceRequest" });

export type CreateSubscriptionRequest = z.infer<typeof createSubscriptionRequestSchema>;
export type CreateInvoiceRequest = z.infer<typeof createInvoiceRequestSchema>;
