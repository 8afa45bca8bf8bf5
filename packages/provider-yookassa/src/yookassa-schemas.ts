import { z } from "zod";

// Only the fields the adapter reads; YooKassa may add fields at any time, and zod drops unknown keys.
// Field names and value sets: yookassa.ru/developers/api (payment and refund objects).

export const amountSchema = z.object({ value: z.string(), currency: z.string() });

const cardSchema = z.object({
  first6: z.string().optional(),
  last4: z.string(),
  card_type: z.string().optional(),
});
export type YooKassaCard = z.infer<typeof cardSchema>;

export const paymentMethodSchema = z.object({
  type: z.string(),
  id: z.string(),
  saved: z.boolean(),
  // pending (waits for the payer), active (saved: chargeable), inactive (not saved).
  status: z.string().optional(),
  title: z.string().optional(),
  card: cardSchema.optional(),
});

/**
 * A saved method as `GET /payment_methods/{id}` and `POST /payment_methods` answer it (SavePaymentMethod:
 * the fields the adapter reads). `confirmation` is there while the save waits for the payer
 * (PaymentMethodsConfirmationRedirect: `confirmation_url`, where the payer enters the card).
 */
export const savedMethodSchema = paymentMethodSchema.extend({
  confirmation: z.object({ type: z.string(), confirmation_url: z.string().optional() }).optional(),
});
export type YooKassaSavedMethod = z.infer<typeof savedMethodSchema>;

export const paymentSchema = z.object({
  id: z.string().min(1),
  status: z.enum(["pending", "waiting_for_capture", "succeeded", "canceled"]),
  amount: amountSchema,
  paid: z.boolean().optional(),
  test: z.boolean().optional(),
  payment_method: paymentMethodSchema.optional(),
  confirmation: z.object({ type: z.string(), confirmation_url: z.string().optional() }).optional(),
  cancellation_details: z.object({ party: z.string(), reason: z.string() }).optional(),
  refunded_amount: amountSchema.optional(),
  metadata: z.record(z.string(), z.string()).optional(),
});
export type YooKassaPayment = z.infer<typeof paymentSchema>;

export const refundSchema = z.object({
  id: z.string().min(1),
  payment_id: z.string().min(1),
  status: z.enum(["pending", "succeeded", "canceled"]),
  amount: amountSchema,
  cancellation_details: z.object({ party: z.string(), reason: z.string() }).optional(),
});
export type YooKassaRefund = z.infer<typeof refundSchema>;

/** The error body of every 4xx and 500 (yookassa.ru/developers/using-api/response-handling/http-codes). */
export const errorSchema = z.object({
  type: z.literal("error"),
  id: z.string().optional(),
  code: z.string(),
  description: z.string().optional(),
  parameter: z.string().optional(),
});
export type YooKassaError = z.infer<typeof errorSchema>;

/** An incoming notification (yookassa.ru/developers/using-api/webhooks). */
export const notificationSchema = z.object({
  type: z.literal("notification"),
  event: z.string().min(1),
  object: z.object({ id: z.string().min(1) }),
});

/**
 * A page of `GET /payments` (yookassa.ru/developers/using-api/lists): `type: "list"`, the page's `items`
 * newest first, and `next_cursor` only while the list goes on.
 */
export const paymentListSchema = z.object({
  type: z.literal("list"),
  items: z.array(paymentSchema),
  next_cursor: z.string().min(1).optional(),
});
