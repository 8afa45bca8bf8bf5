import { itemTotal, type Money, quantityInThousandths, type Receipt, type ReceiptItem } from "@kopek/core";
import { MAX_KOPECKS, toKopecks } from "./amount.js";

/**
 * A receipt as T-Bank's `Init` takes it, `Receipt` in FFD 1.05 (developer.tbank.ru/eacq/api/init, its
 * `Receipt` object; the field lists as T-Bank's OpenAPI description has them, README). Amounts are
 * integers of kopecks; fields Kopek has no value for are left out, not sent null.
 */
export interface TBankReceipt {
  readonly FfdVersion: "1.05";
  readonly Taxation: string;
  readonly Email?: string;
  readonly Phone?: string;
  readonly Items: readonly TBankReceiptItem[];
}

export interface TBankReceiptItem {
  readonly Name: string;
  /** The price of one unit, in kopecks. */
  readonly Price: number;
  /** At most 5 whole digits and 3 decimals: the decimal Kopek holds, as a JSON number. */
  readonly Quantity: number;
  /** Price × Quantity, in kopecks: exact, computed in bigint. */
  readonly Amount: number;
  readonly Tax: string;
  readonly PaymentMethod: string;
  readonly PaymentObject: string;
}

// Kopek's taxSystemCode (API.md 10.7, 1–6) as T-Bank's Taxation. [T] Receipt_FFD_105 (and _FFD_12)
// list osn, usn_income, usn_income_outcome, esn, patent: no envd, so code 4 cannot be sent.
const TAXATION: Readonly<Record<number, string>> = {
  1: "osn",
  2: "usn_income",
  3: "usn_income_outcome",
  5: "esn",
  6: "patent",
};
/** The taxSystemCodes T-Bank's Init takes (`capabilities.receiptTaxSystems`): Kopek refuses others at creation. */
export const TAX_SYSTEMS_TAKEN: readonly number[] = Object.keys(TAXATION).map(Number);

// Kopek's vatCode (YooKassa's codes, API.md 10.7) as T-Bank's Tax, rate for rate: 1 none, 2 vat0,
// 3 vat10, 4 vat20, 5 vat110, 6 vat120 (T-Bank's OpenAPI description as generated into
// likemusic/tinkoff-merchant-api-php-sdk), 7 vat5, 8 vat7, 9 vat105, 10 vat107, 11 vat22, 12 vat122
// (the current list, as the TBankAcquiringNet client has it: README).
const TAX = [
  "none",
  "vat0",
  "vat10",
  "vat20",
  "vat110",
  "vat120",
  "vat5",
  "vat7",
  "vat105",
  "vat107",
  "vat22",
  "vat122",
] as const;

// paymentMode (tag 1214) as T-Bank's PaymentMethod: the same names, but "prepayment" for a partial one.
const PAYMENT_METHOD: Readonly<Record<string, string>> = {
  full_prepayment: "full_prepayment",
  partial_prepayment: "prepayment",
  advance: "advance",
  full_payment: "full_payment",
  partial_payment: "partial_payment",
  credit: "credit",
  credit_payment: "credit_payment",
};

// paymentSubject (tag 1212) values FFD 1.05's PaymentObject list has under the same name. The others
// (FFD 1.2's, named differently by T-Bank and needing MeasurementUnit) are refused, not guessed.
const PAYMENT_OBJECTS = new Set(
  "commodity excise job service gambling_bet gambling_prize lottery lottery_prize intellectual_activity payment agent_commission composite another".split(
    " ",
  ),
);

const QUANTITY_WHOLE_DIGITS = 5;

/** The request field carrying a receipt (`Init`'s, or `Cancel`'s for a partial refund). */
export type ReceiptField = { readonly Receipt?: TBankReceipt };

/**
 * What every request that moves money carries: the amount as T-Bank's `Amount` and the `Receipt`
 * field, or why T-Bank cannot take them (refused before any call is made).
 */
export function moneyFields(
  money: Money,
  receipt: Receipt | null | undefined,
): { readonly amount: number; readonly receipt: ReceiptField } | { readonly refused: string } {
  const amount = toKopecks(money);
  if (amount === null)
    return { refused: "T-Bank adapter: the amount is not whole kopecks of RUB within T-Bank's limit" };
  const mapped = receiptField(receipt);
  return "refused" in mapped ? mapped : { amount, receipt: mapped.field };
}

/** The `Receipt` field for `receipt` (nothing without one), or why T-Bank cannot take it. */
export function receiptField(
  receipt: Receipt | null | undefined,
): { readonly field: ReceiptField } | { readonly refused: string } {
  if (receipt === null || receipt === undefined) return { field: {} };
  const mapped = toTBankReceipt(receipt);
  return "ok" in mapped
    ? { field: { Receipt: mapped.ok } }
    : { refused: `T-Bank adapter: ${mapped.refused}` };
}

/** Kopek's receipt as T-Bank's `Receipt`, exactly, or why T-Bank cannot take it. */
export function toTBankReceipt(
  receipt: Receipt,
): { readonly ok: TBankReceipt } | { readonly refused: string } {
  if (receipt.taxSystemCode === null)
    return { refused: "T-Bank needs the receipt's taxSystemCode (Taxation, 1–6)" };
  const taxation = TAXATION[receipt.taxSystemCode];
  if (taxation === undefined)
    return {
      refused: `T-Bank's Taxation has no taxSystemCode ${receipt.taxSystemCode} (envd is not in its list)`,
    };
  const items: TBankReceiptItem[] = [];
  for (const [index, item] of receipt.items.entries()) {
    const mapped = toTBankItem(item);
    if (typeof mapped === "string") return { refused: `receipt item ${index}: ${mapped}` };
    items.push(mapped);
  }
  return {
    ok: {
      FfdVersion: "1.05",
      Taxation: taxation,
      ...(receipt.customer.email === null ? {} : { Email: receipt.customer.email }),
      // T-Bank's phone is "+{digits}", which Kopek's E.164 already is.
      ...(receipt.customer.phone === null ? {} : { Phone: receipt.customer.phone }),
      Items: items,
    },
  };
}

function toTBankItem(item: ReceiptItem): TBankReceiptItem | string {
  if (item.amount.currency !== "RUB") return "T-Bank takes RUB only";
  const tax = TAX[item.vatCode - 1];
  if (tax === undefined) return `vatCode ${item.vatCode} has no T-Bank Tax value`;
  const paymentMethod = PAYMENT_METHOD[item.paymentMode];
  if (paymentMethod === undefined) return `paymentMode ${item.paymentMode} has no T-Bank value`;
  if (!PAYMENT_OBJECTS.has(item.paymentSubject))
    return `paymentSubject ${item.paymentSubject} has no FFD 1.05 PaymentObject at T-Bank`;
  const thousandths = quantityInThousandths(item.quantity);
  if (thousandths === null || thousandths >= 10n ** BigInt(QUANTITY_WHOLE_DIGITS + 3))
    return "T-Bank takes a quantity of at most 5 whole digits";
  const price = kopecksOf(item.amount.amount);
  const total = itemTotal(item.quantity, item.amount.amount);
  if (!total.whole) return "its total is not whole kopecks";
  const amount = kopecksOf(total.minorUnits.toString());
  if (price === null || amount === null) return "its amount is beyond T-Bank's 10 digits of kopecks";
  return {
    Name: item.description,
    Price: price,
    // The decimal as JSON writes it: at most 8 significant digits, so Number() of it is that decimal.
    Quantity: Number(item.quantity),
    Amount: amount,
    Tax: tax,
    PaymentMethod: paymentMethod,
    PaymentObject: item.paymentSubject,
  };
}

/** Whole kopecks (digits) as a number, or null beyond T-Bank's 10 digits; zero is allowed for an item. */
function kopecksOf(digits: string): number | null {
  if (!/^[0-9]{1,10}$/.test(digits)) return null;
  const value = BigInt(digits);
  return value <= BigInt(MAX_KOPECKS) ? Number(value) : null;
}
