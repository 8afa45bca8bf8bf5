import type { Invoice, Metadata, Subscription } from "./domain.js";
import { type InvoiceView, invoiceStatusAt, type SubscriptionView } from "./presenters.js";

/**
 * The JSON text of the views in presenters.ts, byte for byte what JSON.stringify makes of them, for the
 * bodies of every write request: `invoiceJson`/`subscriptionJson` straight from the domain object
 * (where no view is needed), `invoiceViewJson`/`subscriptionViewJson` from a view already built. The
 * key order here must follow the presenters; view-json.test.ts checks all four against JSON.stringify
 * on arbitrary invoices and subscriptions.
 */
export function invoiceJson(i: Invoice, now: Date): string {
  const customer = i.customer;
  return (
    `{"id":${quote(i.id)},"status":${quote(invoiceStatusAt(i, now))}` +
    `,"amount":{"amount":${quote(i.amount.amount)},"currency":${quote(i.amount.currency)}}` +
    `,"description":${quote(i.description)},"comment":${nullableQuote(i.comment)}` +
    `,"customer":${
      customer === null
        ? "null"
        : `{"email":${quote(customer.email)},"phone":${nullableQuote(customer.phone)},"externalId":${nullableQuote(customer.externalId)}}`
    }` +
    `,"metadata":${metadataJson(i.metadata)}` +
    `,"paymentUrl":${quote(i.paymentUrl)},"returnUrl":${nullableQuote(i.returnUrl)}` +
    `,"method":${nullableQuote(i.method)},"pinnedMethod":${nullableQuote(i.pinnedMethod)}` +
    `,"createdAt":"${i.createdAt.toISOString()}","expiresAt":"${i.expiresAt.toISOString()}"` +
    `,"paidAt":${nullableDate(i.paidAt)},"canceledAt":${nullableDate(i.canceledAt)}}`
  );
}

/** See invoiceJson: `JSON.stringify(presentSubscription(s))` without the intermediate view. */
export function subscriptionJson(s: Subscription): string {
  // A new subscription starts, is charged and is created at one instant; toISOString is the dearest
  // step here (~0.4 µs), so an equal time reuses the text.
  const createdAt = s.createdAt.toISOString();
  return (
    `{"id":${quote(s.id)},"status":${quote(s.status)}` +
    `,"amount":{"amount":${quote(s.amount.amount)},"currency":${quote(s.amount.currency)}}` +
    `,"period":{"unit":${quote(s.period.unit)},"count":${numberJson(s.period.count)}}` +
    `,"description":${quote(s.description)},"method":${quote(s.method)}` +
    `,"methodMask":${quote(s.methodMask)},"metadata":${metadataJson(s.metadata)}` +
    `,"startedAt":"${sameInstant(s.startedAt, s.createdAt, createdAt)}","nextChargeAt":"${s.nextChargeAt.toISOString()}"` +
    `,"lastChargedAt":"${sameInstant(s.lastChargedAt, s.createdAt, createdAt)}","cyclesStarted":${numberJson(s.cyclesStarted)}` +
    `,"createdAt":"${createdAt}","canceledAt":${nullableDate(s.canceledAt)}` +
    `,"cancelReason":${nullableQuote(s.cancelReason)}}`
  );
}

/**
 * `JSON.stringify(view)` for a view presenters.ts already built, as a use case that keeps the view as
 * its body has: cheaper than JSON.stringify (no generic walk), and unlike invoiceJson it does not call
 * toISOString a second time for the dates the presenter already wrote, which would cost more than it
 * saves.
 */
export function invoiceViewJson(v: InvoiceView): string {
  const customer = v.customer;
  return (
    `{"id":${quote(v.id)},"status":${quote(v.status)}` +
    `,"amount":{"amount":${quote(v.amount.amount)},"currency":${quote(v.amount.currency)}}` +
    `,"description":${quote(v.description)},"comment":${nullableQuote(v.comment)}` +
    `,"customer":${
      customer === null
        ? "null"
        : `{"email":${quote(customer.email)},"phone":${nullableQuote(customer.phone)},"externalId":${nullableQuote(customer.externalId)}}`
    }` +
    `,"metadata":${metadataJson(v.metadata)}` +
    `,"paymentUrl":${quote(v.paymentUrl)},"returnUrl":${nullableQuote(v.returnUrl)}` +
    `,"method":${nullableQuote(v.method)},"pinnedMethod":${nullableQuote(v.pinnedMethod)}` +
    `,"createdAt":"${v.createdAt}","expiresAt":"${v.expiresAt}"` +
    `,"paidAt":${nullableIso(v.paidAt)},"canceledAt":${nullableIso(v.canceledAt)}}`
  );
}

/** See invoiceViewJson: `JSON.stringify(view)` for a view presentSubscription built. */
export function subscriptionViewJson(v: SubscriptionView): string {
  return (
    `{"id":${quote(v.id)},"status":${quote(v.status)}` +
    `,"amount":{"amount":${quote(v.amount.amount)},"currency":${quote(v.amount.currency)}}` +
    `,"period":{"unit":${quote(v.period.unit)},"count":${numberJson(v.period.count)}}` +
    `,"description":${quote(v.description)},"method":${quote(v.method)}` +
    `,"methodMask":${quote(v.methodMask)},"metadata":${metadataJson(v.metadata)}` +
    `,"startedAt":"${v.startedAt}","nextChargeAt":"${v.nextChargeAt}"` +
    `,"lastChargedAt":"${v.lastChargedAt}","cyclesStarted":${numberJson(v.cyclesStarted)}` +
    `,"createdAt":"${v.createdAt}","canceledAt":${nullableIso(v.canceledAt)}` +
    `,"cancelReason":${nullableQuote(v.cancelReason)}}`
  );
}

// Characters JSON.stringify escapes (quote, backslash, control characters) or may rewrite (lone
// surrogates); a string without any is its own JSON text between quotes. Pairs are sent the slow way
// too: rare in these fields, and JSON.stringify knows a pair from a lone half.
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
const NEEDS_ESCAPING = /["\\\u0000-\u001f\ud800-\udfff]/;

function quote(text: string): string {
  return NEEDS_ESCAPING.test(text) ? JSON.stringify(text) : `"${text}"`;
}

function nullableQuote(text: string | null): string {
  return text === null ? "null" : quote(text);
}

// toISOString's output is digits, '-', ':', '.', 'T', 'Z' and '+': never anything to escape.
function nullableDate(date: Date | null): string {
  return date === null ? "null" : `"${date.toISOString()}"`;
}

// A view's dates are toISOString's text already.
function nullableIso(text: string | null): string {
  return text === null ? "null" : `"${text}"`;
}

/** `date.toISOString()`, taken from `knownText` when `date` is the same instant as `known`. */
function sameInstant(date: Date, known: Date, knownText: string): string {
  return date.getTime() === known.getTime() ? knownText : date.toISOString();
}

// JSON.stringify writes NaN and the infinities as null; String() agrees with it on every finite number.
function numberJson(value: number): string {
  return Number.isFinite(value) ? String(value) : "null";
}

/**
 * Object.keys lists an object's keys in the order JSON.stringify writes them (integer-like keys
 * first, ascending). Anything but a string value (which the domain type rules out, but a stored row
 * might carry) goes to JSON.stringify of the whole object, which then decides.
 */
function metadataJson(metadata: Metadata): string {
  let out = "{";
  for (const key of Object.keys(metadata)) {
    const value = metadata[key];
    if (typeof value !== "string") return JSON.stringify(metadata);
    if (out.length > 1) out += ",";
    out += `${quote(key)}:${quote(value)}`;
  }
  return `${out}}`;
}
