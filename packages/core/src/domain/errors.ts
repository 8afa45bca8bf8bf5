/**
 * Every error Kopek answers with: a closed union keyed by `code` (API.md 4). Use cases return these
 * in a `Result`; `toProblem` renders them, so every embedding answers the same way.
 */

/** One problem in a request body, for `validation_failed`. */
export interface FieldIssue {
  /** JSON Pointer into the request body as a URI fragment: `#/customer/email`. */
  readonly pointer: string;
  readonly code: FieldIssueCode;
  readonly detail: string;
}

export const FIELD_ISSUE_CODES = [
  "required",
  "invalid_type",
  "invalid_format",
  "too_small",
  "too_large",
  "too_long",
  "invalid_value",
  "unknown_field",
  "mutually_exclusive",
  "unsupported_currency",
  "card_number_not_allowed",
  "duplicate",
  "receipt_total_mismatch",
  "invalid_character",
] as const;
export type FieldIssueCode = (typeof FIELD_ISSUE_CODES)[number];

export type KopekError =
  | { readonly code: "invalid_json"; readonly detail?: string }
  /** Not HTTP the server can read (a control character in a header, a broken request line). */
  | { readonly code: "bad_request" }
  /** The request's headers or body did not arrive in time. */
  | { readonly code: "request_timeout" }
  /** The request's headers are larger than the server accepts. */
  | { readonly code: "headers_too_large" }
  | { readonly code: "idempotency_key_missing" }
  | { readonly code: "idempotency_key_invalid"; readonly detail: string }
  | { readonly code: "unauthorized" }
  | { readonly code: "payment_declined"; readonly detail: string }
  | { readonly code: "not_found" }
  /** A method the API serves on no path (QUERY, PUT, PROPFIND…); `allow`: what this path serves. */
  | { readonly code: "method_not_allowed"; readonly allow: readonly string[] }
  | { readonly code: "idempotency_request_in_progress" }
  | { readonly code: "invalid_state"; readonly detail: string }
  | { readonly code: "payload_too_large"; readonly limitBytes: number }
  | { readonly code: "unsupported_media_type" }
  | { readonly code: "validation_failed"; readonly errors: readonly FieldIssue[] }
  | { readonly code: "idempotency_key_reused" }
  | { readonly code: "method_unavailable"; readonly detail: string }
  /** A refund for more than remains refundable of its payment, or in another currency (API.md 10.6). */
  | { readonly code: "refund_exceeds_payment"; readonly detail: string }
  /** A subscription's `invoiceId` names an invoice it cannot be made from; `detail` says why (API.md 10.5). */
  | { readonly code: "invoice_not_usable"; readonly detail: string }
  /** The invoice already backs a subscription (API.md 10.5). */
  | { readonly code: "invoice_already_used"; readonly detail: string }
  /** Another customer of the project has this `externalId` (API.md 11.1); `detail` names it. */
  | { readonly code: "customer_exists"; readonly detail: string }
  /** A `customerId` that names no customer of this project (API.md 11.1). */
  | { readonly code: "customer_not_found"; readonly detail: string }
  /** A webhook endpoint's URL the outbound guard refuses (API.md 12); `detail` says why. */
  | { readonly code: "url_not_allowed"; readonly detail: string }
  | { readonly code: "rate_limited"; readonly retryAfterSeconds: number }
  | { readonly code: "internal_error"; readonly cause?: unknown }
  | { readonly code: "provider_error"; readonly cause?: unknown }
  | { readonly code: "provider_unavailable"; readonly cause?: unknown }
  /** Storage cannot be reached (e.g. the database is down); retriable, answered with 503. */
  | { readonly code: "storage_unavailable"; readonly cause?: unknown };

export type KopekErrorCode = KopekError["code"];

/** Narrows a `KopekError` to one code. */
export type KopekErrorOf<C extends KopekErrorCode> = Extract<KopekError, { code: C }>;
