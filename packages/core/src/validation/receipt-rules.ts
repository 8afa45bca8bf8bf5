import type { FieldIssue } from "../domain/errors.js";
import { CURRENCY_PATTERN, RECEIPT_QUANTITY_PATTERN } from "../domain/limits.js";
import { formatAmount, isValidAmount } from "../domain/money.js";
import { formatThousandths, itemTotal } from "../domain/receipt-total.js";

/**
 * API.md 10.7's cross-field rules of a receipt, on the raw body (so they are reported with zod's
 * problems, all at once): each item is priced in the charged amount's currency, each item comes to
 * whole minor units, and the items add up to the amount exactly — else `receipt_total_mismatch` at
 * `#/receipt/items`. Items zod will refuse anyway (a malformed quantity or amount) are left to zod,
 * and then there is no total to compare.
 */
export function checkReceiptTotal(body: unknown, issues: FieldIssue[]): void {
  const raw = asRecord(body);
  const items = asRecord(raw?.receipt)?.items;
  const amount = asRecord(raw?.amount);
  if (!Array.isArray(items) || items.length === 0 || !amount) return;
  const { amount: charged, currency } = amount;
  if (!isValidAmount(charged) || typeof currency !== "string" || !CURRENCY_PATTERN.test(currency)) return;

  let total = 0n;
  let comparable = true;
  items.forEach((item: unknown, index) => {
    const price = asRecord(asRecord(item)?.amount);
    const quantity = asRecord(item)?.quantity;
    const pointer = `#/receipt/items/${index}`;
    if (
      !price ||
      !isValidAmount(price.amount) ||
      typeof price.currency !== "string" ||
      !CURRENCY_PATTERN.test(price.currency) ||
      typeof quantity !== "string" ||
      !RECEIPT_QUANTITY_PATTERN.test(quantity)
    ) {
      comparable = false;
      return;
    }
    if (price.currency !== currency) {
      issues.push({
        pointer: `${pointer}/amount/currency`,
        code: "invalid_value",
        detail: `must be the amount's currency, ${currency}`,
      });
      comparable = false;
      return;
    }
    const line = itemTotal(quantity, price.amount);
    if (line.whole) {
      total += line.minorUnits;
      return;
    }
    issues.push({
      pointer,
      code: "invalid_value",
      detail: `quantity × amount is ${formatThousandths(line.thousandths)} minor units of ${currency}, not a whole number; a receipt item must come to whole minor units`,
    });
    comparable = false;
  });
  if (comparable && total !== BigInt(charged)) {
    issues.push({
      pointer: "#/receipt/items",
      code: "receipt_total_mismatch",
      detail: `the items come to ${describe(total, currency)}, the amount is ${formatAmount({ amount: charged, currency })} ${currency}; they must be equal`,
    });
  }
}

function describe(total: bigint, currency: string): string {
  return `${formatAmount({ amount: total.toString(), currency })} ${currency}`;
}

function asRecord(value: unknown): Record<string, unknown> | null {
  return value !== null && typeof value === "object" && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;
}
