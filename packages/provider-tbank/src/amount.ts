import { isValidAmount, type Money } from "@kopek/core";

/**
 * T-Bank's `Amount`: an integer number of kopecks of at most 10 digits (developer.tbank.ru/eacq/api/init),
 * so at most 9 999 999 999 — well inside the integers a JSON number holds exactly (2^53).
 */
export const MAX_KOPECKS = 9_999_999_999;

/** Kopek's minor units (`"149900"` RUB) as T-Bank's `Amount` (149900), or null when out of T-Bank's range. */
export function toKopecks(money: Money): number | null {
  if (money.currency !== "RUB" || !isValidAmount(money.amount) || money.amount.length > 10) return null;
  // At most 10 decimal digits: Number() of such a string is exact (no fraction, far below 2^53).
  const kopecks = Number(money.amount);
  return Number.isSafeInteger(kopecks) && kopecks > 0 && kopecks <= MAX_KOPECKS ? kopecks : null;
}

/** T-Bank's `Amount` back to Kopek's minor units, or null when it is not a positive safe integer. */
export function fromKopecks(amount: number): Money | null {
  if (!Number.isSafeInteger(amount) || amount <= 0) return null;
  return { amount: amount.toString(), currency: "RUB" };
}
