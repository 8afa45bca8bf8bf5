import { describePeriod } from "./billing-period.js";
import type { Money, Period } from "./model.js";
import { formatMoney } from "./money.js";

// The descriptions Kopek makes when a request gives none (API.md 5.3, 5.4): stored and answered by the
// API in English, and known again by the pages, which show a payer their own language instead.

/** An invoice's description when the request gave none: `Invoice for 1499.00 RUB`. */
export function generatedInvoiceDescription(amount: Money): string {
  return `Invoice for ${formatMoney(amount)}`;
}

/** A subscription's description when the request gave none: `1499.00 RUB every month`. */
export function generatedSubscriptionDescription(amount: Money, period: Period): string {
  return `${formatMoney(amount)} ${describePeriod(period)}`;
}
