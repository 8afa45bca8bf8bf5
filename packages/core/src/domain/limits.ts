import type { PeriodUnit } from "./model.js";

/**
 * Every limit and pattern of API.md 5 (and the Idempotency-Key header of API.md 3), once. The zod
 * schemas, the fast path, money, the header check and the invoice rules all read them from here.
 */

/** 5.1 An amount: 1 to 18 digits, no sign, dot or leading zero, so it fits a PostgreSQL bigint exactly. */
export const AMOUNT_PATTERN = /^[1-9][0-9]{0,17}$/;
/** 10.2 An amount in a response that may be none: "0", or an amount as above. */
export const AMOUNT_OR_ZERO_PATTERN = /^(0|[1-9][0-9]{0,17})$/;
/** 5.1 The largest amount that pattern allows, in minor units. */
export const MAX_AMOUNT = 999999999999999999n;
/** 5.1 A currency: an ISO 4217 code of three upper-case letters. */
export const CURRENCY_PATTERN = /^[A-Z]{3}$/;
/** 5.2 A billing period is at most one year: its largest count per unit. */
export const MAX_PERIOD_COUNT: Readonly<Record<PeriodUnit, number>> = {
  day: 365,
  week: 52,
  month: 12,
  year: 1,
};
/** 3 The Idempotency-Key header, and 5.3 `providerMethodRef`: printable ASCII only. */
export const PRINTABLE_ASCII = /^[\x20-\x7E]*$/;
/** 3 The Idempotency-Key header's length. */
export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;
/** 5.3 `providerMethodRef`'s length. */
export const MAX_METHOD_REF_LENGTH = 255;
/** 5.3, 5.4 `description`. */
export const MAX_DESCRIPTION_LENGTH = 500;
/** 10.6 a refund's `reason`. */
export const MAX_REFUND_REASON_LENGTH = 500;
/** 5.4 `comment`. */
export const MAX_COMMENT_LENGTH = 1000;
/** 5.3 `metadata`: at most this many keys, each 1–40 characters, each value at most 500. */
export const MAX_METADATA_KEYS = 50;
export const MAX_METADATA_KEY_LENGTH = 40;
export const MAX_METADATA_VALUE_LENGTH = 500;
/** 5.4 `customer.email` (RFC 5321's longest address). */
export const MAX_EMAIL_LENGTH = 254;
/** 5.4 `customer.phone`: E.164. */
export const E164_PATTERN = /^\+[1-9][0-9]{1,14}$/;
/** 5.4 `customer.externalId`. */
export const MAX_EXTERNAL_ID_LENGTH = 255;
/** A customer's name (API.md 11.1). */
export const MAX_CUSTOMER_NAME_LENGTH = 255;
/** 10.3 A project's `displayName`, in characters (code points). */
export const MAX_DISPLAY_NAME_LENGTH = 100;
/** 5.4 `returnUrl`. */
export const MAX_RETURN_URL_LENGTH = 2048;
/** 5.4 `expiresAt` lies at least this far ahead… */
export const MIN_INVOICE_LIFETIME_MS = 60_000;
/** …and at most this far (30 days); without it an invoice lives 24 hours. */
export const MAX_INVOICE_LIFETIME_MS = 30 * 24 * 60 * 60_000;
export const DEFAULT_INVOICE_LIFETIME_MS = 24 * 60 * 60_000;
/** How far ahead a subscription's `trialEnd` may be (API.md 11.6): 1 hour to 365 days. */
export const MIN_TRIAL_MS = 60 * 60_000;
export const MAX_TRIAL_MS = 365 * 24 * 60 * 60_000;
/** `subscription.trial_will_end` comes this long before `trialEnd` (at once for a shorter trial). */
export const TRIAL_NOTICE_MS = 3 * 24 * 60 * 60_000;
/** 10.7 A receipt has 1 to this many items. */
export const MAX_RECEIPT_ITEMS = 100;
/** 10.7 A receipt item's `description`. */
export const MAX_RECEIPT_ITEM_DESCRIPTION_LENGTH = 128;
/** 10.7 A receipt item's quantity has at most this many decimals (thousandths). */
export const RECEIPT_QUANTITY_DECIMALS = 3;
/**
 * 10.7 A receipt item's `quantity`: a decimal string with up to 9 whole digits and up to 3 decimals,
 * no sign, exponent or leading zero ("1", "0.5", "2.000", "12.345"). Zero is left to a rule of its own.
 */
export const RECEIPT_QUANTITY_PATTERN = /^(0|[1-9][0-9]{0,8})(\.[0-9]{1,3})?$/;
/** 10.7 YooKassa's `vat_code` values. */
export const MIN_RECEIPT_VAT_CODE = 1;
export const MAX_RECEIPT_VAT_CODE = 12;
/** 10.7 YooKassa's `tax_system_code` values. */
export const MIN_RECEIPT_TAX_SYSTEM_CODE = 1;
export const MAX_RECEIPT_TAX_SYSTEM_CODE = 6;

/** How long a create (and a charge made at once: a proration, a resume) waits for a pending charge by default (API.md 10.5). */
export const DEFAULT_PENDING_CHARGE_WAIT_MS = 10_000;
