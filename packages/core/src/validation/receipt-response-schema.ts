import { z } from "zod";
import { RECEIPT_PAYMENT_MODES, RECEIPT_PAYMENT_SUBJECTS } from "../domain/model.js";
import { moneySchema } from "./schemas.js";

/** A stored 54-FZ receipt as invoices and subscriptions show it (API.md 10.7). */
export const receiptResponseSchema = z
  .strictObject({
    customer: z
      .strictObject({ email: z.string().nullable(), phone: z.string().nullable() })
      .meta({ id: "ReceiptCustomer", description: "Where the receipt is sent; at least one is set" }),
    taxSystemCode: z.int().nullable().meta({ description: "1–6; null: the provider's default" }),
    items: z
      .array(
        z
          .strictObject({
            description: z.string(),
            quantity: z.string().meta({ example: "1.5" }),
            amount: moneySchema,
            vatCode: z.int(),
            paymentSubject: z.enum(RECEIPT_PAYMENT_SUBJECTS),
            paymentMode: z.enum(RECEIPT_PAYMENT_MODES),
          })
          .meta({ id: "ReceiptItem" }),
      )
      .min(1),
  })
  .meta({ id: "Receipt", description: "The 54-FZ receipt sent with every charge it covers (API.md 10.7)" });
