import { RECEIPT_QUANTITY_DECIMALS, RECEIPT_QUANTITY_PATTERN } from "./limits.js";

/**
 * The exact arithmetic of a 54-FZ receipt (API.md 10.7): an item's total is its quantity (a decimal
 * string with at most 3 decimals) times its unit amount (whole minor units), and the items' totals
 * must add up to the amount charged. Everything is bigint: a quantity is read as a whole number of
 * thousandths, so `0.333 × 100` is 33300 thousandths of a kopeck — never 33.300000000000004.
 *
 * An item whose total is not a whole number of minor units (0.333 × 100 kopecks = 33.3 kopecks) has
 * no amount a provider could print or charge; it is refused as such rather than rounded, because
 * rounding would make the receipt say something other than what the merchant sent.
 */

const SCALE = 10n ** BigInt(RECEIPT_QUANTITY_DECIMALS);

/** The quantity in thousandths (`"0.5"` → 500n, `"2"` → 2000n), or null when it is not a quantity the API accepts. */
export function quantityInThousandths(quantity: string): bigint | null {
  const match = RECEIPT_QUANTITY_PATTERN.exec(quantity);
  if (match === null) return null;
  const whole = match[1] ?? "0";
  const fraction = (match[2] ?? ".").slice(1).padEnd(RECEIPT_QUANTITY_DECIMALS, "0");
  return BigInt(whole) * SCALE + BigInt(fraction);
}

/** One item's total: whole minor units, or (when it is not whole) the exact thousandths of a minor unit. */
export type ItemTotal =
  | { readonly whole: true; readonly minorUnits: bigint }
  | { readonly whole: false; readonly thousandths: bigint };

/** `quantity × unitAmount`, exactly. Both must be valid (a quantity as above, an amount of digits). */
export function itemTotal(quantity: string, unitAmount: string): ItemTotal {
  const thousandths = quantityInThousandths(quantity);
  if (thousandths === null || !/^[0-9]+$/.test(unitAmount)) {
    throw new RangeError(`itemTotal: "${quantity}" × "${unitAmount}" is not a quantity times an amount`);
  }
  const product = thousandths * BigInt(unitAmount);
  return product % SCALE === 0n
    ? { whole: true, minorUnits: product / SCALE }
    : { whole: false, thousandths: product };
}

/** A number of thousandths as a decimal (`33300n` → `"33.3"`), for messages. */
export function formatThousandths(thousandths: bigint): string {
  const whole = thousandths / SCALE;
  const fraction = (thousandths % SCALE)
    .toString()
    .padStart(RECEIPT_QUANTITY_DECIMALS, "0")
    .replace(/0+$/, "");
  return fraction === "" ? whole.toString() : `${whole}.${fraction}`;
}

/**
 * The receipt's total in minor units, or the indexes of the items whose totals are not whole (then
 * there is no exact total to compare).
 */
export function receiptTotal(items: readonly { readonly quantity: string; readonly unitAmount: string }[]): {
  readonly total: bigint;
  readonly fractional: readonly number[];
} {
  let total = 0n;
  const fractional: number[] = [];
  items.forEach((item, index) => {
    const line = itemTotal(item.quantity, item.unitAmount);
    if (line.whole) total += line.minorUnits;
    else fractional.push(index);
  });
  return { total, fractional };
}
