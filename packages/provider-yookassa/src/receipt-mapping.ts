import type { Receipt } from "@kopek/core";
import { toYooKassaAmount, type YooKassaAmount } from "./amount.js";

/**
 * A receipt as YooKassa's payment request takes it, `receipt` (yookassa.ru/developers/api#create_payment,
 * and yookassa.ru/developers/payment-acceptance/receipts/54fz/yoomoney/basics for the 54-FZ fields).
 * Snake-case names, amounts in major units; fields Kopek has no value for are left out, not sent null.
 */
export interface YooKassaReceipt {
  readonly customer: { readonly email?: string; readonly phone?: string };
  readonly items: readonly YooKassaReceiptItem[];
  readonly tax_system_code?: number;
}

export interface YooKassaReceiptItem {
  readonly description: string;
  /** As Kopek holds it: a decimal string with its own decimals (`"1.500"` stays `"1.500"`). */
  readonly quantity: string;
  /** The price of one unit, major units (`"1499.00"`), converted by string arithmetic. */
  readonly amount: YooKassaAmount;
  readonly vat_code: number;
  readonly payment_subject: string;
  readonly payment_mode: string;
}

/** Kopek's receipt as YooKassa's `receipt` object, exactly: no rounding, no float, every item in order. */
export function toYooKassaReceipt(receipt: Receipt): YooKassaReceipt {
  const customer: { email?: string; phone?: string } = {};
  if (receipt.customer.email !== null) customer.email = receipt.customer.email;
  // YooKassa's receipt phone is "in ITU-T E.164 format, e.g. 79000000000" (api#create_payment): the
  // digits without the "+" Kopek's E.164 carries.
  if (receipt.customer.phone !== null) customer.phone = receipt.customer.phone.replace(/^\+/, "");
  return {
    customer,
    items: receipt.items.map((item) => ({
      description: item.description,
      quantity: item.quantity,
      amount: toYooKassaAmount(item.amount),
      vat_code: item.vatCode,
      payment_subject: item.paymentSubject,
      payment_mode: item.paymentMode,
    })),
    ...(receipt.taxSystemCode === null ? {} : { tax_system_code: receipt.taxSystemCode }),
  };
}
