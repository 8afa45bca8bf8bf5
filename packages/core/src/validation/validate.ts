import { ok, type Result } from "neverthrow";
import { z } from "zod";
import type { FieldIssue } from "../domain/errors.js";
import {
  CURRENCY_PATTERN,
  MAX_INVOICE_LIFETIME_MS,
  MAX_TRIAL_MS,
  MIN_INVOICE_LIFETIME_MS,
  MIN_TRIAL_MS,
} from "../domain/limits.js";
import {
  type CreateCustomerRequest,
  createCustomerRequestSchema,
  type UpdateCustomerRequest,
  updateCustomerRequestSchema,
} from "./customer-schemas.js";
import { fastCreateInvoice, fastCreateSubscription } from "./fast-path.js";
import { checkReceiptTotal } from "./receipt-rules.js";
import {
  type CancelSubscriptionRequest,
  type CreateInvoiceRequest,
  type CreateRefundRequest,
  type CreateSubscriptionRequest,
  cancelSubscriptionRequestSchema,
  createInvoiceRequestSchema,
  createRefundRequestSchema,
  createSubscriptionRequestSchema,
  type UpdateSubscriptionRequest,
  updateSubscriptionRequestSchema,
} from "./schemas.js";
import { validate } from "./validate-body.js";

/** What validation needs to know beyond the body: the provider's currencies and the time. */
export interface ValidationContext {
  readonly currencies: readonly string[];
  readonly now: Date;
}

import type { ValidationFailure } from "./validate-body.js";

export type { ValidationFailure };

/** Validates a create-subscription body (API.md 5.3), reporting every problem at once. */
export function validateCreateSubscription(
  body: unknown,
  context: ValidationContext,
): Result<CreateSubscriptionRequest, ValidationFailure> {
  const checked = validate(createSubscriptionRequestSchema, fastCreateSubscription, body, (issues) => {
    checkCurrency(body, context, issues);
    checkMetadataKeys(body, issues);
    checkSubscriptionShape(asRecord(body), issues);
    checkReceiptTotal(body, issues);
    checkTrialEnd(asRecord(body), context.now, issues);
  });
  // `checkSubscriptionShape` let through exactly one of the two shapes.
  return checked as Result<CreateSubscriptionRequest, ValidationFailure>;
}

/**
 * Exactly one of the two shapes (API.md 10.5): `method` + `providerMethodRef`, or `invoiceId`. Without
 * `invoiceId` the two are each required, as they always were; with it, each one sent is reported.
 */
function checkSubscriptionShape(raw: Record<string, unknown> | null, issues: FieldIssue[]): void {
  if (raw === null) return;
  const stored = ["method", "providerMethodRef"] as const;
  if (raw.invoiceId === undefined) {
    for (const field of stored)
      if (raw[field] === undefined)
        issues.push({ pointer: `#/${field}`, code: "required", detail: "is required (or send invoiceId)" });
    return;
  }
  for (const field of stored)
    if (raw[field] !== undefined)
      issues.push({
        pointer: `#/${field}`,
        code: "mutually_exclusive",
        detail: "send either invoiceId, or method and providerMethodRef, not both",
      });
  if (raw.customerId !== undefined)
    issues.push({
      pointer: "#/customerId",
      code: "mutually_exclusive",
      detail: "a subscription made from an invoice takes the invoice's customer: send no customerId",
    });
}

/** Validates a create-invoice body (API.md 5.4), reporting every problem at once. */
export function validateCreateInvoice(
  body: unknown,
  context: ValidationContext,
): Result<CreateInvoiceRequest, ValidationFailure> {
  return validate(createInvoiceRequestSchema, fastCreateInvoice, body, (issues) => {
    checkCurrency(body, context, issues);
    checkMetadataKeys(body, issues);
    checkReceiptTotal(body, issues);
    const raw = asRecord(body);
    if (raw && raw.method !== undefined && raw.methods !== undefined) {
      issues.push({
        pointer: "#/methods",
        code: "mutually_exclusive",
        detail: "send either method or methods, not both",
      });
    }
    if (raw && raw.customerId !== undefined && raw.customer !== undefined && raw.customer !== null) {
      issues.push({
        pointer: "#/customerId",
        code: "mutually_exclusive",
        detail: "send either customerId or customer, not both",
      });
    }
    checkAhead(
      raw?.expiresAt,
      "expiresAt",
      context.now,
      [MIN_INVOICE_LIFETIME_MS, MAX_INVOICE_LIFETIME_MS],
      issues,
    );
  });
}

function asRecord(value: unknown): Record<string, unknown> | null {
  return value !== null && typeof value === "object" && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;
}

function checkCurrency(body: unknown, context: ValidationContext, issues: FieldIssue[]): void {
  const currency = asRecord(asRecord(body)?.amount)?.currency;
  if (
    typeof currency === "string" &&
    CURRENCY_PATTERN.test(currency) &&
    !context.currencies.includes(currency)
  ) {
    issues.push({
      pointer: "#/amount/currency",
      code: "unsupported_currency",
      detail: `the project's provider does not accept ${currency}; it accepts ${context.currencies.join(", ")}`,
    });
  }
}

/** zod drops a `__proto__` key while copying a record; reject it rather than lose it silently. */
function checkMetadataKeys(body: unknown, issues: FieldIssue[]): void {
  const metadata = asRecord(asRecord(body)?.metadata);
  if (metadata && Object.hasOwn(metadata, "__proto__")) {
    issues.push({ pointer: "#/metadata/__proto__", code: "invalid_value", detail: "is a reserved key" });
  }
}

const DAY_MS = 24 * 60 * 60_000;

/** A timestamp `field` between `min` and `max` ms after now (an invoice's expiry, a trial's end). */
function checkAhead(
  value: unknown,
  field: string,
  now: Date,
  [min, max]: readonly [number, number],
  issues: FieldIssue[],
): void {
  if (typeof value !== "string") return;
  const at = Date.parse(value);
  if (Number.isNaN(at)) return;
  const ahead = at - now.getTime();
  const within = (ms: number) => (ms % DAY_MS === 0 ? `${ms / DAY_MS} days` : `${ms / 1000} seconds`);
  if (ahead < min)
    issues.push({
      pointer: `#/${field}`,
      code: "too_small",
      detail: `must be at least ${within(min)} after now`,
    });
  else if (ahead > max)
    issues.push({
      pointer: `#/${field}`,
      code: "too_large",
      detail: `must be at most ${within(max)} after now`,
    });
}

/** `trialEnd` (API.md 11.6): 1 hour to 365 days ahead, and not on a subscription from a paid invoice. */
function checkTrialEnd(raw: Record<string, unknown> | null, now: Date, issues: FieldIssue[]): void {
  if (raw === null || raw.trialEnd === undefined) return;
  if (raw.invoiceId !== undefined)
    issues.push({
      pointer: "#/trialEnd",
      code: "mutually_exclusive",
      detail: "a subscription from a paid invoice has its first cycle paid: it cannot have a trial",
    });
  checkAhead(raw.trialEnd, "trialEnd", now, [MIN_TRIAL_MS, MAX_TRIAL_MS], issues);
}

/**
 * Validates a refund request (API.md 10.6). No body at all is `{}`: the whole remainder, no reason.
 * A currency the provider takes but the payment is not in is the use case's to refuse.
 */
export function validateCreateRefund(
  body: unknown,
  context: ValidationContext,
): Result<CreateRefundRequest, ValidationFailure> {
  if (body === undefined) return ok({});
  return validate(createRefundRequestSchema, null, body, (issues) => checkCurrency(body, context, issues));
}

/** A subscription's cancel (API.md 6, 11.2): no body, `{}`, or `{ "at": "now" | "period_end" }`. */
export function validateCancelSubscription(
  body: unknown,
): Result<CancelSubscriptionRequest, ValidationFailure> {
  return body === undefined ? ok({}) : validate(cancelSubscriptionRequestSchema, null, body, () => {});
}

/**
 * A subscription's change (API.md 11.3): at least one field; what can be checked without the
 * subscription (the receipt against a new amount sent with it, `charge_now` with a new amount and no
 * new period). The rest — the currency, a receipt against the stored amount — `updateSubscription` checks.
 */
export function validateUpdateSubscription(
  body: unknown,
  context: ValidationContext,
): Result<UpdateSubscriptionRequest, ValidationFailure> {
  return validate(updateSubscriptionRequestSchema, null, body, (issues) => {
    const raw = asRecord(body);
    if (raw !== null && Object.keys(raw).length === 0)
      issues.push({ pointer: "#", code: "required", detail: "name at least one field to change" });
    checkCurrency(body, context, issues);
    checkMetadataKeys(body, issues);
    checkReceiptTotal(body, issues);
    if (raw?.proration !== "charge_now") return;
    if (raw.amount === undefined)
      issues.push({
        pointer: "#/amount",
        code: "required",
        detail: "proration charge_now prorates a new amount",
      });
    if (raw.period !== undefined)
      issues.push({
        pointer: "#/proration",
        code: "mutually_exclusive",
        detail: "charge_now prorates within the current period: change the period with proration none",
      });
  });
}

/** A new customer (API.md 11.1): at least one of email, phone and externalId. */
export function validateCreateCustomer(body: unknown): Result<CreateCustomerRequest, ValidationFailure> {
  return validate(createCustomerRequestSchema, null, body, (issues) => {
    checkMetadataKeys(body, issues);
    const raw = asRecord(body);
    if (raw !== null && [raw.email, raw.phone, raw.externalId].every((v) => v === undefined || v === null))
      issues.push({
        pointer: "#",
        code: "required",
        detail: "send at least one of email, phone and externalId",
      });
  });
}

/** A customer's change (API.md 11.1): at least one field. */
export function validateUpdateCustomer(body: unknown): Result<UpdateCustomerRequest, ValidationFailure> {
  return validate(updateCustomerRequestSchema, null, body, (issues) => {
    checkMetadataKeys(body, issues);
    if (typeof body === "object" && body !== null && Object.keys(body).length === 0)
      issues.push({ pointer: "#", code: "required", detail: "name at least one field to change" });
  });
}

const emptyBodySchema = z.strictObject({});

/** A state-change request (cancel) takes no fields: no body, or `{}`. */
export function validateEmptyBody(body: unknown): Result<undefined, ValidationFailure> {
  return body === undefined
    ? ok(undefined)
    : validate(emptyBodySchema, null, body, () => {}).map(() => undefined);
}
