import type { Answer } from "./emulator-api.js";
import type { EmulatedPayment } from "./emulator-books.js";
import { refusal, unmatched } from "./emulator-refusals.js";

// The emulator's check of a `Receipt` sent with `Init` or `Cancel` ([T] Receipt_FFD_105 and Items_FFD_105):
// what it refuses, [T] documents as required or as a closed set. Returns the refusal, or null when taken.

// [T] Receipt_FFD_105.Taxation (and Receipt_FFD_12's): no `envd`.
const TAXATIONS = new Set(["osn", "usn_income", "usn_income_outcome", "esn", "patent"]);
// [T] Items_FFD_105.Tax, and vat22 / vat122 that came after v1.80 (test/spec-check.ts, KNOWN_CONTRADICTIONS).
const TAXES = new Set("none vat0 vat5 vat7 vat10 vat20 vat22 vat105 vat107 vat110 vat120 vat122".split(" "));
const PAYMENT_METHODS = new Set(
  "full_prepayment prepayment advance full_payment partial_payment credit credit_payment".split(" "),
);

const isKopecks = (value: unknown): value is number =>
  typeof value === "number" && Number.isSafeInteger(value) && value >= 0 && String(value).length <= 10;

export function receiptRefusal(receipt: unknown, amount: number): Answer | null {
  const why = receiptProblem(receipt, amount);
  if (why === null) return null;
  if (why === "Email или Phone") return refusal("329", "email или Phone обязательны при передаче чека");
  if (why === "Quantity")
    return refusal("310", "Целая часть параметра Quantity не должна быть больше 5 знаков");
  if (why === "Amount") return refusal("334", "Суммы в чеке и в платеже не совпадают", "Receipt: Amount");
  return unmatched(`Receipt.${why}`);
}

function receiptProblem(receipt: unknown, amount: number): string | null {
  if (typeof receipt !== "object" || receipt === null || Array.isArray(receipt)) return "Receipt";
  const { Taxation, FfdVersion, Email, Phone, Items } = receipt as Record<string, unknown>;
  if (typeof Taxation !== "string" || !TAXATIONS.has(Taxation)) return "Taxation";
  if (FfdVersion !== undefined && FfdVersion !== "1.05" && FfdVersion !== "1.2") return "FfdVersion";
  if (typeof Email !== "string" && typeof Phone !== "string") return "Email или Phone";
  if (typeof Phone === "string" && !/^\+[0-9]{1,63}$/.test(Phone)) return "Phone";
  if (!Array.isArray(Items) || Items.length === 0 || Items.length > 100) return "Items";
  let total = 0;
  for (const item of Items as Record<string, unknown>[]) {
    const { Name, Price, Quantity, Amount, Tax, PaymentMethod } = item;
    if (typeof Name !== "string" || Name.length === 0 || Array.from(Name).length > 128) return "Items.Name";
    if (!isKopecks(Price) || !isKopecks(Amount)) return "Items.Price, Items.Amount";
    if (
      typeof Quantity !== "number" ||
      !(Quantity > 0) ||
      !/^[0-9]{1,5}(\.[0-9]{1,3})?$/.test(String(Quantity))
    )
      return "Quantity";
    // Amount is "the product of Quantity and Price": checked in thousandths, exactly.
    const [whole = "0", fraction = ""] = String(Quantity).split(".");
    const thousandths = BigInt(whole) * 1000n + BigInt(fraction.padEnd(3, "0"));
    if (BigInt(Price) * thousandths !== BigInt(Amount) * 1000n) return "Items.Amount ≠ Price × Quantity";
    if (typeof Tax !== "string" || !TAXES.has(Tax)) return "Items.Tax";
    if (
      PaymentMethod !== undefined &&
      (typeof PaymentMethod !== "string" || !PAYMENT_METHODS.has(PaymentMethod))
    )
      return "Items.PaymentMethod";
    total += Amount;
  }
  // The emulator's reading: the receipt is for the payment, so its items come to the payment's Amount.
  return total === amount ? null : "Amount";
}

/**
 * Cancel's `Receipt` (developer.tbank.ru/eacq/api/cancel): "required if an online cash register
 * is connected" — the emulator takes a payment whose Init carried a Receipt as such a terminal — "not
 * passed for a full cancel", and "for a partial one, the items being cancelled": checked like Init's,
 * its items coming to the refunded amount.
 */
export function cancelReceiptRefusal(
  payment: EmulatedPayment,
  amount: number,
  receipt: unknown,
): Answer | null {
  const whole = payment.refunded === 0 && amount === payment.Amount;
  if (whole) return receipt === undefined ? null : unmatched("Receipt: не передается при полной отмене");
  if (receipt === undefined)
    return payment.Receipt === null ? null : refusal("309", "Поле Receipt не должно быть пустым");
  return receiptRefusal(receipt, amount);
}
