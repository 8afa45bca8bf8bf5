import { type Invalid, kopecksOf } from "./emulator-validation.js";

// The `receipt` of POST /payments as YooKassa documents it (yookassa.ru/developers/api#create_payment,
// receipt; value sets: yookassa.ru/developers/payment-acceptance/receipts/54fz/other-services/parameters-values,
// as in YooKassa's SDK yoomoney/yookassa-sdk-php lib/Model/Receipt/PaymentSubject.php and PaymentMode.php).
// Written from YooKassa's documentation, not from Kopek's schemas, so the adapter is held to YooKassa's rules.

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const invalid = (parameter: string, description: string): Invalid => ({ parameter, description });

const PAYMENT_SUBJECTS = new Set(
  (
    "commodity excise job service gambling_bet gambling_prize lottery lottery_prize intellectual_activity " +
    "payment agent_commission property_right non_operating_gain insurance_premium sales_tax resort_fee " +
    "composite another fine tax lien cost pension_insurance_without_payouts pension_insurance_with_payouts " +
    "health_insurance_without_payouts health_insurance_with_payouts health_insurance casino agent_withdrawals " +
    "non_marked_excise marked_excise marked non_marked"
  ).split(" "),
);
const PAYMENT_MODES = new Set(
  "full_prepayment partial_prepayment advance full_payment partial_payment credit credit_payment".split(" "),
);
const ITEMS_MAX = 100;
const ITEM_DESCRIPTION_MAX = 128;
// "Integer or fractional; the point separates the fraction, at most 3 digits after it" (api, items.quantity).
const QUANTITY = /^[0-9]+(\.[0-9]{1,3})?$/;
const PRICE = /^[0-9]+(\.[0-9]{1,2})?$/;
// receipt.customer.phone: "ITU-T E.164, e.g. 79000000000".
const PHONE = /^[0-9]{2,15}$/;

/**
 * Checks a payment's receipt, and that its items (amount × quantity) add up to the payment's amount,
 * as YooKassa refuses a receipt whose total differs from the payment. Wraps the receipt as received.
 */
export function checkReceipt(receipt: unknown, paymentValue: string): Invalid | { readonly receipt: Json } {
  if (!isObject(receipt)) return invalid("receipt", "receipt must be an object");
  const { customer, items, tax_system_code: taxSystem } = receipt;
  if (!isObject(customer) || (customer.email === undefined && customer.phone === undefined)) {
    return invalid("receipt.customer", "Specify the customer's email or phone for the receipt");
  }
  if (customer.email !== undefined && (typeof customer.email !== "string" || !customer.email.includes("@"))) {
    return invalid("receipt.customer.email", "email is not valid");
  }
  if (customer.phone !== undefined && (typeof customer.phone !== "string" || !PHONE.test(customer.phone))) {
    return invalid("receipt.customer.phone", "phone must be in ITU-T E.164 format, e.g. 79000000000");
  }
  if (taxSystem !== undefined && !isIntegerIn(taxSystem, 1, 6)) {
    return invalid("receipt.tax_system_code", "tax_system_code must be an integer from 1 to 6");
  }
  if (!Array.isArray(items) || items.length === 0 || items.length > ITEMS_MAX) {
    return invalid("receipt.items", `items must hold 1 to ${ITEMS_MAX} items`);
  }
  let thousandths = 0n;
  for (const [index, item] of items.entries()) {
    const at = `receipt.items[${index}]`;
    const problem = checkItem(item, at);
    if (typeof problem !== "bigint") return problem;
    thousandths += problem;
  }
  if (thousandths !== kopecksOf(paymentValue) * 1000n) {
    return invalid("receipt.items", "The sum of the items' amounts differs from the payment amount");
  }
  return { receipt };
}

/** An item's amount × quantity in thousandths of a kopeck, or what is wrong with it. */
function checkItem(item: unknown, at: string): Invalid | bigint {
  if (!isObject(item)) return invalid(at, "item must be an object");
  const { description, quantity, amount } = item;
  // Counted in UTF-16 units, the strictest reading of "128 символов" (README "Every field").
  if (typeof description !== "string" || description === "" || description.length > ITEM_DESCRIPTION_MAX) {
    return invalid(`${at}.description`, `description must hold 1 to ${ITEM_DESCRIPTION_MAX} characters`);
  }
  if (typeof quantity !== "string" || !QUANTITY.test(quantity) || !/[1-9]/.test(quantity)) {
    return invalid(`${at}.quantity`, "quantity must be positive, with at most 3 digits after the point");
  }
  if (!isObject(amount) || typeof amount.value !== "string" || !PRICE.test(amount.value)) {
    return invalid(
      `${at}.amount.value`,
      "amount.value must be a decimal with at most 2 digits after the point",
    );
  }
  if (amount.currency !== "RUB")
    return invalid(`${at}.amount.currency`, "Currency is not supported by the shop");
  if (!isIntegerIn(item.vat_code, 1, 12)) return invalid(`${at}.vat_code`, "vat_code must be from 1 to 12");
  if (typeof item.payment_subject !== "string" || !PAYMENT_SUBJECTS.has(item.payment_subject)) {
    return invalid(`${at}.payment_subject`, "payment_subject is not a documented value");
  }
  if (typeof item.payment_mode !== "string" || !PAYMENT_MODES.has(item.payment_mode)) {
    return invalid(`${at}.payment_mode`, "payment_mode is not a documented value");
  }
  const [whole = "0", fraction = ""] = quantity.split(".");
  return kopecksOf(amount.value) * (BigInt(whole) * 1000n + BigInt(fraction.padEnd(3, "0")));
}

function isIntegerIn(value: unknown, min: number, max: number): boolean {
  return typeof value === "number" && Number.isInteger(value) && value >= min && value <= max;
}
