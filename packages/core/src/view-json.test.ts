import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  CANCEL_REASONS,
  INVOICE_STATUSES,
  type Invoice,
  PAYMENT_METHODS,
  PERIOD_UNITS,
  SUBSCRIPTION_STATUSES,
  type Subscription,
} from "./domain.js";
import { presentInvoice, presentSubscription } from "./presenters.js";
import { sampleInvoice } from "./testing/fixtures.js";
import { invoiceJson, invoiceViewJson, subscriptionJson, subscriptionViewJson } from "./view-json.js";

// Code units JSON.stringify treats specially (quote, backslash, controls, lone surrogate halves, the
// line separators it leaves alone), plus any code point and any single UTF-16 unit.
const tricky = fc.constantFrom(
  '"',
  "\\",
  "\u0000",
  "\n",
  "\u001f",
  "\u007f",
  "\u2028",
  "\u2029",
  "\ud800",
  "\udfff",
);
const unit = fc.oneof(
  tricky,
  fc.string({ unit: "binary", minLength: 1, maxLength: 1 }),
  fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code)),
  fc.constantFrom("a", "Z", "0", " ", "@", "/", "é", "😀"),
);
const text = fc.string({ unit, maxLength: 24 });
const nullableText = fc.option(text, { nil: null });
const date = fc.date({ noInvalidDate: true });
const nullableDate = fc.option(date, { nil: null });
// Integer-like keys are written first by JSON.stringify, whatever their insertion order.
const metadataKey = fc.oneof(
  text,
  fc.constantFrom("__proto__", "toJSON", "constructor", "0", "7", "10", "-1", ""),
);
const metadata = fc.dictionary(metadataKey, text, { maxKeys: 6 });
const count = fc.oneof(fc.nat(), fc.integer({ min: 1, max: 12 }), fc.double());

const invoice: fc.Arbitrary<Invoice> = fc.record({
  id: text,
  projectId: text,
  status: fc.constantFrom(...INVOICE_STATUSES),
  amount: fc.record({ amount: text, currency: text }),
  description: text,
  comment: nullableText,
  customer: fc.option(fc.record({ email: text, phone: nullableText, externalId: nullableText }), {
    nil: null,
  }),
  metadata,
  paymentUrl: text,
  returnUrl: nullableText,
  allowedMethods: fc.subarray([...PAYMENT_METHODS]),
  method: fc.option(fc.constantFrom(...PAYMENT_METHODS), { nil: null }),
  pinnedMethod: fc.option(fc.constantFrom(...PAYMENT_METHODS), { nil: null }),
  createdAt: date,
  expiresAt: date,
  paidAt: nullableDate,
  canceledAt: nullableDate,
  version: fc.nat(),
});

const subscription: fc.Arbitrary<Subscription> = fc.record({
  id: text,
  projectId: text,
  status: fc.constantFrom(...SUBSCRIPTION_STATUSES),
  amount: fc.record({ amount: text, currency: text }),
  period: fc.record({ unit: fc.constantFrom(...PERIOD_UNITS), count }),
  method: fc.constantFrom(...PAYMENT_METHODS),
  providerMethodRef: text,
  methodMask: text,
  description: text,
  metadata,
  startedAt: date,
  nextChargeAt: date,
  lastChargedAt: date,
  cyclesStarted: count,
  createdAt: date,
  canceledAt: nullableDate,
  cancelReason: fc.option(fc.constantFrom(...CANCEL_REASONS), { nil: null }),
  nextCycle: fc.nat(),
  nextAttemptAt: date,
  declines: fc.nat(),
  firstDeclinedAt: nullableDate,
  version: fc.nat(),
});

/** Often started and last charged at its creation instant, as a new subscription is, or at one other. */
const subscriptionAt = fc.tuple(subscription, date).chain(([s, other]) => {
  const sharedOrAny = fc.oneof(
    date,
    fc.constant(s.createdAt),
    fc.constant(new Date(s.createdAt.getTime())),
    fc.constant(other),
  );
  return fc
    .record({ startedAt: sharedOrAny, lastChargedAt: sharedOrAny })
    .map((dates): Subscription => ({ ...s, ...dates }));
});

const MAX_TIME = 8.64e15;

/** An invoice and a `now` anywhere, or just before, at or after its expiry (where `created` reads expired). */
const invoiceAndNow = invoice.chain((i) =>
  fc.tuple(
    fc.constant(i),
    fc.oneof(
      date,
      fc
        .integer({ min: -2, max: 2 })
        .map((ms) => new Date(Math.min(MAX_TIME, Math.max(-MAX_TIME, i.expiresAt.getTime() + ms)))),
    ),
  ),
);

describe("invoiceJson and invoiceViewJson", () => {
  it("are JSON.stringify(presentInvoice(invoice, now)), byte for byte", () => {
    fc.assert(
      fc.property(invoiceAndNow, ([i, now]) => {
        const view = presentInvoice(i, now);
        expect(invoiceJson(i, now)).toBe(JSON.stringify(view));
        expect(invoiceViewJson(view)).toBe(JSON.stringify(view));
      }),
      { numRuns: 2000 },
    );
  });

  it("reads an unpaid invoice past its expiry as expired", () => {
    const i = sampleInvoice("p", { comment: 'say "hi"\n\ud800', metadata: { b: "1", 2: "x", a: "\u2028" } });
    const after = new Date(i.expiresAt.getTime() + 1);
    const json = invoiceJson(i, after);
    expect(JSON.parse(json)).toMatchObject({ status: "expired", comment: 'say "hi"\n\ud800' });
    expect(json).toBe(JSON.stringify(presentInvoice(i, after)));
    expect(invoiceJson(i, i.createdAt)).toBe(JSON.stringify(presentInvoice(i, i.createdAt)));
  });

  it("leaves metadata that is not all strings (a malformed stored row) to JSON.stringify", () => {
    const odd = { a: "1", b: undefined, c: 2 } as unknown as Invoice["metadata"];
    const i = sampleInvoice("p", { metadata: odd });
    expect(invoiceJson(i, i.createdAt)).toBe(JSON.stringify(presentInvoice(i, i.createdAt)));
  });
});

describe("subscriptionJson and subscriptionViewJson", () => {
  it("are JSON.stringify(presentSubscription(s)), byte for byte", () => {
    fc.assert(
      fc.property(subscriptionAt, (s) => {
        const view = presentSubscription(s);
        expect(subscriptionJson(s)).toBe(JSON.stringify(view));
        expect(subscriptionViewJson(view)).toBe(JSON.stringify(view));
      }),
      { numRuns: 2000 },
    );
  });
});
