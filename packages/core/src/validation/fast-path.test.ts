import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import { DATETIME_WITH_OFFSET, EMAIL, fastCreateInvoice, fastCreateSubscription } from "./fast-path.js";
import { createInvoiceRequestSchema, createSubscriptionRequestSchema, customerSchema } from "./schemas.js";
import { validateCreateInvoice, validateCreateSubscription } from "./validate.js";

const context = { currencies: ["RUB", "USD", "EUR"], now: new Date("2026-11-22T09:30:00.000Z") };

/** JSON with key order, where a key holding `undefined` still shows. */
const exact = (value: unknown) =>
  JSON.stringify(value, (_key, v: unknown) => (v === undefined ? "<undef>" : v));

/**
 * A field's values: `valid` ones zod should usually accept, `wrong` ones just past a limit or off in
 * some other way. Zod is the judge in every property, so the split only steers generation.
 */
interface Field {
  readonly valid: fc.Arbitrary<unknown>;
  readonly wrong: fc.Arbitrary<unknown>;
}
const field = (valid: fc.Arbitrary<unknown>, wrong: fc.Arbitrary<unknown>): Field => ({
  valid,
  wrong: fc.oneof({ arbitrary: wrong, weight: 4 }, fc.anything()),
});

/**
 * A strict object: valid when every field is; wrong with one field wrong (often deep inside), a
 * required field missing, an unknown key (also an own `__proto__`), or not an object at all.
 */
function strictObject(fields: Record<string, Field>, required: readonly string[]): Field {
  const names = Object.keys(fields);
  const pick = (use: (f: Field) => fc.Arbitrary<unknown>) =>
    Object.fromEntries(names.map((name) => [name, use(fields[name] as Field)]));
  const options = { requiredKeys: [...required], noNullPrototype: true };
  const valid = fc.record(
    pick((f) => f.valid),
    options,
  );
  const oneWrong = fc
    .tuple(valid, fc.constantFrom(...names))
    .chain(([body, name]) => (fields[name] as Field).wrong.map((value) => ({ ...body, [name]: value })));
  const missing = fc.tuple(valid, fc.constantFrom(...required)).map(([body, name]) => {
    const { [name]: _, ...rest } = body;
    return rest;
  });
  const unknown = fc
    .tuple(valid, fc.constantFrom("extra", "__proto__", "constructor"), fc.jsonValue())
    .map(([body, key, value]) => {
      const copy: Record<string, unknown> = { ...body };
      Object.defineProperty(copy, key, { value, enumerable: true, writable: true, configurable: true });
      return copy;
    });
  const mixed = fc.record(
    pick((f) => fc.oneof({ arbitrary: f.valid, weight: 6 }, f.wrong)),
    options,
  );
  return {
    valid,
    wrong: fc.oneof(
      { arbitrary: oneWrong, weight: 6 },
      missing,
      unknown,
      mixed,
      fc.constantFrom(null, [], "x", 1, new Date(0)),
    ),
  };
}

/** Strings of `min` to `max` characters, and just outside: of `x`, of astral characters, of anything. */
function lengths(min: number, max: number): Field & { readonly valid: fc.Arbitrary<string> } {
  const sized = (counts: number[]) =>
    fc
      .constantFrom(...counts.filter((n) => n >= 0))
      .chain((n) =>
        fc.oneof(
          fc.constant("x".repeat(n)),
          fc.constant("😀".repeat(n)),
          fc.constant(`${"x".repeat(Math.max(0, n - 1))}😀`),
          fc.string({ minLength: n, maxLength: n, unit: "binary" }),
        ),
      );
  const valid = fc.oneof(fc.string({ maxLength: 20 }), sized([min, max]));
  return { valid, wrong: field(valid, sized([min - 1, max + 1])).wrong };
}
const orNull = (f: Field): Field => field(fc.oneof(f.valid, fc.constant(null)), f.wrong);

const validAmount = fc.oneof(
  fc.constantFrom("1", "149900", "9".repeat(18)),
  fc.stringMatching(/^[1-9][0-9]{0,17}$/),
);
const money = strictObject(
  {
    amount: field(validAmount, fc.constantFrom("0", "01", "1".repeat(19), "-1", "1.5", " 1", "", 1)),
    currency: field(
      fc.constantFrom("RUB", "USD", "EUR"),
      fc.constantFrom("GBP", "rub", "RU", "RUBB", "RUB "),
    ),
  },
  ["amount", "currency"],
);
const method = field(fc.constantFrom("card", "sbp"), fc.constantFrom("cash", "CARD", ""));
const methods = field(
  fc.constantFrom(["card"], ["sbp"], ["card", "sbp"], ["sbp", "card"]),
  fc.constantFrom(
    [],
    ["card", "card"],
    ["cash"],
    [1],
    ["card", "sbp", "card"],
    Object.assign(Array(2), { 1: "card" }),
  ),
);

const keyed = (count: number, key = (i: number) => `k${i}`) =>
  Object.fromEntries(Array.from({ length: count }, (_, i) => [key(i), "v"]));
const metadataKey = lengths(1, 40);
const metadataValue = lengths(0, 500);
const metadata = field(
  fc.oneof(
    fc.dictionary(
      fc.oneof(metadataKey.valid, fc.constantFrom("1", "10", "constructor")),
      metadataValue.valid,
      {
        maxKeys: 5,
        noNullPrototype: true,
      },
    ),
    fc.constantFrom(
      keyed(0),
      keyed(1),
      keyed(50),
      keyed(50, (i) => `${i}`.padStart(40, "k")),
    ),
  ),
  fc.oneof(
    fc.constantFrom(
      keyed(51),
      keyed(51, (i) => `${i}`),
    ),
    fc.tuple(metadataKey.wrong, metadataValue.valid).map(([key, value]) => ({ [String(key)]: value })),
    fc.tuple(metadataKey.valid, metadataValue.wrong).map(([key, value]) => ({ [String(key)]: value })),
    fc.constantFrom(
      JSON.parse('{"__proto__":"x"}'),
      JSON.parse('{"a":"b","__proto__":{}}'),
      { [Symbol("s")]: "v" },
      Object.create(null, { k: { value: "v", enumerable: true } }),
      ["v"],
      null,
    ),
  ),
);

const email = field(
  fc.oneof(
    fc.constantFrom("payer@example.com", "a@b.co", `${"x".repeat(242)}@example.com`),
    fc.emailAddress(),
  ),
  fc.oneof(
    fc.constantFrom(`${"x".repeat(243)}@example.com`, `${"x".repeat(240)}@example.com.`),
    fc.constantFrom(
      ...[
        " payer@example.com",
        "payer@example.com ",
        "PAYER@EXAMPLE.COM",
        "no-at.example.com",
        "a@b",
        "a@b.c",
      ],
      ...["a..b@example.com", "a@-b.com", "ü@example.com", "", "a@example.com\n"],
    ),
  ),
);
const phone = orNull(
  field(
    fc.oneof(
      fc.constantFrom("+79991234567", "+12", "+123456789012345"),
      fc.stringMatching(/^\+[1-9][0-9]{1,14}$/),
    ),
    fc.constantFrom("+1", "+0123", "+1234567890123456", "79991234567", "+7 999 123", " +79991234567"),
  ),
);
const customer = orNull(strictObject({ email, phone, externalId: orNull(lengths(1, 255)) }, ["email"]));

const longUrl = (length: number) => `https://e.com/${"a".repeat(length - 14)}`;
const returnUrl = orNull(
  field(
    fc.oneof(
      fc
        .tuple(
          fc.constantFrom("http", "https"),
          fc.constantFrom("shop.example.com", "localhost", "EXAMPLE.com", "a-b.example.io", "example.1a"),
          fc.constantFrom("", "/", "/a/b?c=d&e=%20#f", ":8080/x", "?q", "#f"),
        )
        .map(([scheme, host, rest]) => `${scheme}://${host}${rest}`),
      fc.webUrl({ withQueryParameters: true, withFragments: true }),
      fc.constant(longUrl(2048)),
    ),
    fc.constantFrom(
      ...[longUrl(2049), ` ${longUrl(2048)}`, "HTTPS://shop.example.com/", " https://shop.example.com/"],
      ...["https://shop.example.com/\n", "https://exa\tmple.com/", "https://shop.example.com/a b"],
      ...["javascript:alert(1)", "https://", "https:///path", "http:example.com", "https:/example.com"],
      ...["ftp://example.com/", "/relative", "https://xn--a.com/", "https://xn--abc-.com/", "https://[::1]/"],
      ...[
        "https://example.0x1/",
        "https://1.2.3.4/",
        "https://example.com:99999/",
        "https://u:p@example.com/",
      ],
      ...["https://exa_mple.com/", "https://a..b.com/", "https://example.com\\path", "https://-a.com/"],
    ),
  ),
);

/** ISO 8601 with a random offset and precision, around the allowed window of 60 s to 30 days. */
const timestamp = fc
  .tuple(
    fc.integer({ min: -86_400, max: 32 * 86_400 }),
    fc.integer({ min: -14 * 60, max: 14 * 60 }),
    fc.constantFrom(-1, 0, 3, 6),
  )
  .map(([seconds, offset, digits]) => {
    const wall = new Date(context.now.getTime() + seconds * 1000 + offset * 60_000).toISOString();
    const time =
      digits === -1 ? wall.slice(0, 16) : wall.slice(0, 19) + (digits > 0 ? `.${"1".repeat(digits)}` : "");
    const hhmm = `${String(Math.trunc(Math.abs(offset) / 60)).padStart(2, "0")}:${String(Math.abs(offset) % 60).padStart(2, "0")}`;
    return `${time}${offset === 0 && digits > 0 ? "Z" : `${offset < 0 ? "-" : "+"}${hhmm}`}`;
  });
const expiresAt = field(
  fc.oneof(timestamp, fc.constantFrom("2026-11-29T09:30:00.000Z", "2026-11-29T09:30:00+03:00")),
  fc.constantFrom(
    ...["2026-11-29T09:30:00", "2026-11-29 09:30:00Z", "2026-11-29T09:30:00z", "2026-11-29T24:00:00Z"],
    ...["2026-11-29T09:30:00+24:00", "2026-02-29T09:30:00Z", "2028-02-29T09:30:00Z", "2026-11-29", null],
  ),
);
const description = lengths(0, 500);

const invoice = strictObject(
  {
    amount: money,
    method,
    methods,
    description,
    comment: orNull(lengths(0, 1000)),
    customer,
    metadata,
    returnUrl,
    expiresAt,
  },
  ["amount"],
);
const subscription = strictObject(
  {
    amount: money,
    period: strictObject(
      {
        unit: field(fc.constantFrom("day", "week", "month", "year"), fc.constantFrom("fortnight", "Month")),
        count: field(
          fc.constantFrom(1, 12),
          fc.constantFrom(0, 13, 52, 53, 365, 366, 1.5, -1, Number.NaN, "1"),
        ),
      },
      ["unit", "count"],
    ),
    method,
    providerMethodRef: field(
      fc.oneof(fc.constantFrom("pm_abc", "4111111111111112"), fc.stringMatching(/^[\x20-\x7E]{1,40}$/)),
      fc.oneof(
        lengths(1, 255).wrong,
        fc.constantFrom("x".repeat(255), "4111111111111111", "tok 2200-7000-0000-0009", "tab\there", "ref-ü"),
      ),
    ),
    description,
    metadata,
  },
  ["amount", "period", "method", "providerMethodRef"],
);
const bodies = (f: Field) => fc.oneof(f.valid, f.wrong);

const cases = [
  { name: "create-invoice", fast: fastCreateInvoice, schema: createInvoiceRequestSchema, body: invoice },
  {
    name: "create-subscription",
    fast: fastCreateSubscription,
    schema: createSubscriptionRequestSchema,
    body: subscription,
  },
] as const;

describe.each(cases)("the $name fast path", ({ fast, schema, body }) => {
  it("accepts only what zod accepts, and returns what zod returns, key order included", () => {
    let accepted = 0;
    fc.assert(
      fc.property(bodies(body), (input) => {
        const value: unknown = fast(input);
        if (value === undefined) return;
        accepted++;
        const parsed = schema.safeParse(input);
        expect(parsed.success).toBe(true);
        expect(exact(value)).toBe(exact(parsed.data));
        expect(value).toStrictEqual(parsed.data);
      }),
      { numRuns: 8000 },
    );
    // Most bodies are near misses; enough must be accepted for the property to mean something.
    expect(accepted).toBeGreaterThan(800);
  });
});

describe("the fast path is really used", () => {
  it("for the bodies `pnpm bench` sends (bench/src/bodies.mjs)", async () => {
    // Read from the bench itself, so the two cannot drift apart.
    const bench = new URL("../../../../bench/src/bodies.mjs", import.meta.url).href;
    const { INVOICE_BODY, SUBSCRIPTION_BODY } = (await import(bench)) as Record<string, string>;
    const invoice = JSON.parse(INVOICE_BODY as string) as unknown;
    const subscription = JSON.parse(SUBSCRIPTION_BODY as string) as unknown;
    expect(exact(fastCreateInvoice(invoice))).toBe(exact(createInvoiceRequestSchema.parse(invoice)));
    expect(exact(fastCreateSubscription(subscription))).toBe(
      exact(createSubscriptionRequestSchema.parse(subscription)),
    );
  });

  it("for plainly valid bodies, fields in any order", () => {
    const plain = fc.record(
      {
        metadata: fc.dictionary(
          fc.string({ minLength: 1, maxLength: 40 }).filter((key) => key !== "__proto__"),
          fc.string({ maxLength: 500 }),
          { maxKeys: 50, noNullPrototype: true },
        ),
        amount: fc.record(
          { currency: fc.constantFrom("RUB", "EUR"), amount: validAmount },
          { noNullPrototype: true },
        ),
        methods: fc.constantFrom(["card"], ["sbp", "card"]),
        description: fc.string({ maxLength: 500 }),
        comment: fc.option(fc.string({ maxLength: 1000 })),
        customer: fc.option(
          fc.record(
            {
              phone: fc.option(fc.constant("+79991234567")),
              email: fc.stringMatching(
                /^[a-z0-9_+-]{1,20}(?:\.[a-z0-9_+-]{1,9})?@[a-z0-9]{1,10}\.[a-z]{2,6}$/,
              ),
            },
            { noNullPrototype: true },
          ),
        ),
        returnUrl: fc.option(fc.constantFrom("https://shop.example.com/a?b=c#d", "http://localhost:3000/")),
        expiresAt: fc.constantFrom("2026-11-29T09:30:00.000Z", "2026-11-22T12:31:00.5+03:00"),
      },
      { requiredKeys: ["amount"], noNullPrototype: true },
    );
    fc.assert(
      fc.property(plain, (body) => {
        const value = fastCreateInvoice(body);
        expect(value).toStrictEqual(createInvoiceRequestSchema.parse(body));
        expect(validateCreateInvoice(body, context)._unsafeUnwrap()).toStrictEqual(value);
      }),
    );
  });

  it("tests e-mail addresses and timestamps with zod's own patterns", () => {
    expect(customerSchema.shape.email._zod.def.pattern).toBe(EMAIL);
    const expires = createInvoiceRequestSchema.shape.expiresAt.unwrap();
    expect(expires._zod.def.pattern?.source).toBe(DATETIME_WITH_OFFSET.source);
  });
});

describe("validateCreateInvoice and validateCreateSubscription", () => {
  it("give the same results, errors included, with the fast path as with zod alone", async () => {
    vi.resetModules();
    const decline = vi.fn(() => undefined);
    vi.doMock("./fast-path.js", () => ({ fastCreateInvoice: decline, fastCreateSubscription: decline }));
    const zodOnly = await import("./validate.js");
    vi.doUnmock("./fast-path.js");
    const outcome = (result: ReturnType<typeof validateCreateInvoice | typeof validateCreateSubscription>) =>
      result.isOk() ? { ok: exact(result.value) } : { err: result.error };
    fc.assert(
      fc.property(bodies(invoice), bodies(subscription), (invoiceBody, subscriptionBody) => {
        expect(outcome(validateCreateInvoice(invoiceBody, context))).toStrictEqual(
          outcome(zodOnly.validateCreateInvoice(invoiceBody, context)),
        );
        expect(outcome(validateCreateSubscription(subscriptionBody, context))).toStrictEqual(
          outcome(zodOnly.validateCreateSubscription(subscriptionBody, context)),
        );
      }),
      { numRuns: 1500 },
    );
    expect(decline).toHaveBeenCalledTimes(3000);
  });
});
