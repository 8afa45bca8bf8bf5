import { z } from "zod";

// Only the fields the adapter reads; T-Bank may add fields, and zod drops unknown keys. Every answer
// carries Success, ErrorCode ("0" when it succeeded), and on failure Message and Details
// (developer.tbank.ru/eacq/api/init, …/charge, …/check-order, …/get-qr).

const id = z.union([z.string().min(1), z.number().int().nonnegative()]).transform(String);
/** [T] types a binding's RequestKey a number, and shows it as a UUID string too: read as a string. */
export const requestKeySchema = id;

export const answerSchema = z.object({
  Success: z.boolean(),
  ErrorCode: z.string(),
  Message: z.string().optional(),
  Details: z.string().optional(),
  Status: z.string().optional(),
  PaymentId: id.optional(),
});
export type TBankAnswer = z.infer<typeof answerSchema>;

export const initSchema = answerSchema.extend({
  PaymentId: id,
  Status: z.string(),
  Amount: z.number().int(),
  OrderId: z.string(),
  PaymentURL: z.string().optional(),
});

export const stateSchema = answerSchema.extend({
  PaymentId: id,
  Status: z.string(),
  Amount: z.number().int().optional(),
  OrderId: z.string().optional(),
  // [T] GetState.Params (Items_Params): Route and Source of the payment; Source qrsbp is SBP.
  Params: z.array(z.object({ Key: z.string(), Value: z.string() })).optional(),
});
export type TBankState = z.infer<typeof stateSchema>;

// [T] PaymentsCheckOrder: PaymentId, Status and Success required; unlike the envelope, `Success` is a
// string ("true" / "false") and `ErrorCode` a number (its example: `"Success": "true", "ErrorCode": 0`).
// Neither decides anything here: the payment's Status does.
const orderPaymentSchema = z.object({
  PaymentId: id,
  Amount: z.number().int().optional(),
  Status: z.string(),
  Success: z.enum(["true", "false"]),
  ErrorCode: z.number().int().optional(),
});
export type TBankOrderPayment = z.infer<typeof orderPaymentSchema>;

export const checkOrderSchema = answerSchema.extend({
  OrderId: z.string(),
  Payments: z.array(orderPaymentSchema).default([]),
});

/**
 * A successful CheckOrder as the lookup reads it (the client checked `Success` and `ErrorCode`):
 * `Payments` required, as the OpenAPI document has it (CheckOrder-2).
 */
export const checkedOrderSchema = z.object({
  OrderId: z.string(),
  Payments: z.array(orderPaymentSchema),
});

export const cancelSchema = answerSchema.extend({
  PaymentId: id,
  Status: z.string(),
  OriginalAmount: z.number().int().optional(),
  NewAmount: z.number().int().optional(),
});

export const qrSchema = answerSchema.extend({ PaymentId: id, Data: z.string().min(1) });

export const cardListSchema = z.array(
  z.object({
    CardId: id,
    Pan: z.string(),
    Status: z.string(),
    RebillId: id.optional(),
  }),
);

/** An incoming notification: the root fields Kopek reads; the Token covers all root fields. */
export const notificationSchema = z.object({
  TerminalKey: z.string(),
  Token: z.string(),
  PaymentId: id.optional(),
  Status: z.string().optional(),
  OrderId: z.string().optional(),
  // An SBP account binding's notification names its RequestKey, not a payment (sbp-saving.ts).
  RequestKey: requestKeySchema.optional(),
  // [T] NotificationQr: always LINKACCOUNT; NotificationAddCard (a card binding) has none, and a CustomerKey.
  NotificationType: z.string().optional(),
  CustomerKey: z.string().optional(),
});
