/** 54-FZ fiscal receipts (API.md 10.7): the values and the shape kept with invoices and subscriptions. */
/**
 * `payment_subject` (54-FZ tag 1212) as YooKassa documents it: what is being paid for. The values of
 * yookassa.ru/developers/payment-acceptance/receipts/54fz/other-services/parameters-values (the same
 * list as YooKassa's own SDK, yoomoney/yookassa-sdk-php `lib/Model/Receipt/PaymentSubject.php`).
 */
export const RECEIPT_PAYMENT_SUBJECTS = [
  "commodity",
  "excise",
  "job",
  "service",
  "gambling_bet",
  "gambling_prize",
  "lottery",
  "lottery_prize",
  "intellectual_activity",
  "payment",
  "agent_commission",
  "property_right",
  "non_operating_gain",
  "insurance_premium",
  "sales_tax",
  "resort_fee",
  "composite",
  "another",
  "fine",
  "tax",
  "lien",
  "cost",
  "pension_insurance_without_payouts",
  "pension_insurance_with_payouts",
  "health_insurance_without_payouts",
  "health_insurance_with_payouts",
  "health_insurance",
  "casino",
  "agent_withdrawals",
  "non_marked_excise",
  "marked_excise",
  "marked",
  "non_marked",
] as const;
export type ReceiptPaymentSubject = (typeof RECEIPT_PAYMENT_SUBJECTS)[number];

/**
 * `payment_mode` (54-FZ tag 1214) as YooKassa documents it: prepaid, paid in full, on credit… (same
 * page; yoomoney/yookassa-sdk-php `lib/Model/Receipt/PaymentMode.php`).
 */
export const RECEIPT_PAYMENT_MODES = [
  "full_prepayment",
  "partial_prepayment",
  "advance",
  "full_payment",
  "partial_payment",
  "credit",
  "credit_payment",
] as const;
export type ReceiptPaymentMode = (typeof RECEIPT_PAYMENT_MODES)[number];

/** One line of a 54-FZ receipt (API.md 10.7). */
export interface ReceiptItem {
  /** 1–128 characters, as printed on the receipt. */
  readonly description: string;
  /** A decimal string > 0 with at most 3 decimals, kept as sent (`"1"`, `"0.5"`, `"2.000"`). */
  readonly quantity: string;
  /** The price of one unit in the charged amount's currency: a Money, spelled out (no import circle). */
  readonly amount: { readonly amount: string; readonly currency: string };
  /** The provider's VAT code, 1–12. */
  readonly vatCode: number;
  readonly paymentSubject: ReceiptPaymentSubject;
  readonly paymentMode: ReceiptPaymentMode;
}

/**
 * A 54-FZ fiscal receipt (API.md 10.7), sent to the provider with every charge it covers. Its items
 * come to the charged amount exactly (`receipt-total.ts`).
 */
export interface Receipt {
  /** Where the receipt is sent: at least one of the two is set. */
  readonly customer: { readonly email: string | null; readonly phone: string | null };
  /** The seller's tax system, 1–6; null: the one the provider has on file. */
  readonly taxSystemCode: number | null;
  /** 1–100 lines. */
  readonly items: readonly ReceiptItem[];
}

/**
 * The one-item receipt of a charge made beside a subscription's cycles (a proration, API.md 11.3; a
 * verification payment, 11.5): the subscription's receipt's buyer and tax system, its first item's
 * description, VAT, subject and mode, for `amount`. Null without receipts.
 */
export function oneItemReceipt(
  receipt: Receipt | null,
  amount: { readonly amount: string; readonly currency: string },
): Receipt | null {
  const item = receipt?.items[0];
  if (receipt === null || item === undefined) return null;
  return {
    customer: receipt.customer,
    taxSystemCode: receipt.taxSystemCode,
    items: [{ ...item, quantity: "1", amount: { amount: amount.amount, currency: amount.currency } }],
  };
}
