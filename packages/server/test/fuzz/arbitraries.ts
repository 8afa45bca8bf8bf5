import { generateApiKey } from "@kopek/core";
import { awkwardTextArb, deeplyNestedArb, longTextArb } from "@kopek/testing";
import fc from "fast-check";
import type { RawRequest } from "./raw-http.js";

/** What a generated request may refer to: the valid key, and ids that exist. */
export interface FuzzTargets {
  readonly apiKey: string;
  readonly subscriptionId: string;
  readonly invoiceId: string;
}

const ROUTES = ["/v1/subscriptions", "/v1/invoices"] as const;

const fuzzText = fc.oneof(
  { weight: 4, arbitrary: fc.string({ unit: "grapheme", maxLength: 40 }) },
  { weight: 3, arbitrary: awkwardTextArb },
  { weight: 1, arbitrary: longTextArb },
);

const anyJsonScalar = fc.oneof(
  fuzzText,
  fc.string({ unit: "binary", maxLength: 40 }), // lone surrogates and all
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.bigInt({ min: -(10n ** 40n), max: 10n ** 40n }).map(String),
);
/** Values for a field, of every type but the right one as often as the right one. */
/**
 * Secrets the fuzzer plants: card numbers written as people write them in fields, metadata keys and
 * values and X-Request-Id, and an API key of no project in X-Request-Id (a key in free text is the
 * caller's own business, not refused). None may come back in a response or reach the log.
 */
const PLANTED_CARD_NUMBERS = [
  "4111111111111111",
  "4111--1111--1111--1111",
  "4111-1111-1111-1111",
  "(4111)(1111)(1111)(1111)",
  "\uff14\uff11\uff11\uff11\uff11\uff11\uff11\uff11\uff11\uff11\uff11\uff11\uff11\uff11\uff11\uff11",
  "4111\u200b1111\u200b1111\u200b1111",
  "4111 1111 1111 1111",
  "4111.1111.1111.1111",
  "4111_1111_1111_1111",
  "4111/1111/1111/1111",
  "4111  1111  1111  1111",
  "5500-0000-0000-0004",
];
export const PLANTED_SECRETS = [...PLANTED_CARD_NUMBERS, generateApiKey()];
const planted = fc.constantFrom(...PLANTED_CARD_NUMBERS);

const fieldValue = fc.oneof(
  planted,
  anyJsonScalar,
  fc.array(anyJsonScalar, { maxLength: 5 }),
  fc.dictionary(fc.oneof(fc.string({ maxLength: 10 }), awkwardTextArb), anyJsonScalar, { maxKeys: 5 }),
  fc.jsonValue({ maxDepth: 4 }),
  deeplyNestedArb,
);

const validSubscription = fc.record({
  amount: fc.record({
    amount: fc.oneof(fc.bigInt({ min: 1n, max: 10n ** 18n - 1n }).map(String), fc.constant("149900")),
    currency: fc.constantFrom("RUB", "USD", "EUR"),
  }),
  period: fc.record({
    unit: fc.constantFrom("day", "week", "month", "year"),
    count: fc.integer({ min: 1, max: 12 }),
  }),
  method: fc.constantFrom("card", "sbp"),
  providerMethodRef: fc.uuid().map((id) => `pm_fuzz_${id}`),
});
const validInvoice = fc.record(
  {
    amount: fc.record({ amount: fc.constant("149900"), currency: fc.constantFrom("RUB", "EUR") }),
    methods: fc.subarray(["card", "sbp"], { minLength: 1 }),
    customer: fc.record({ email: fc.emailAddress() }),
    metadata: fc.dictionary(
      fc.oneof(fc.string({ minLength: 1, maxLength: 40 }), awkwardTextArb, planted),
      fc.oneof(fc.string({ maxLength: 50 }), awkwardTextArb, planted),
      { maxKeys: 5 },
    ),
    description: awkwardTextArb,
  },
  { requiredKeys: ["amount"] },
);

/** A valid body, then up to three fields replaced, removed or added with anything. */
const mutatedBody = fc
  .tuple(
    fc.oneof(validSubscription, validInvoice) as fc.Arbitrary<Record<string, unknown>>,
    fc.array(
      fc.tuple(
        fc.constantFrom(
          "amount",
          "period",
          "method",
          "methods",
          "providerMethodRef",
          "customer",
          "metadata",
          "description",
          "comment",
          "returnUrl",
          "expiresAt",
          "__proto__",
          "constructor",
          "prototype",
          "extra",
        ),
        fc.option(fieldValue, { nil: undefined }),
      ),
      { maxLength: 3 },
    ),
  )
  .map(([body, changes]) => {
    const copy: Record<string, unknown> = { ...body };
    for (const [field, value] of changes) {
      if (value === undefined) delete copy[field];
      else
        Object.defineProperty(copy, field, { value, enumerable: true, writable: true, configurable: true });
    }
    return JSON.stringify(copy);
  });

const bodyText: fc.Arbitrary<string | undefined> = fc.oneof(
  { weight: 6, arbitrary: mutatedBody },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 6 }).map((value) => JSON.stringify(value) ?? "null") },
  { weight: 1, arbitrary: fc.constant(undefined) },
  { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 200 }) }, // not JSON, mostly
  {
    weight: 1,
    arbitrary: fc.integer({ min: 1, max: 20_000 }).map((depth) => `${"[".repeat(depth)}${"]".repeat(depth)}`),
  },
  {
    weight: 1,
    arbitrary: fc
      .integer({ min: 1, max: 40 })
      .map((depth) => `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`),
  },
  {
    weight: 1,
    arbitrary: fc
      .integer({ min: 60_000, max: 80_000 })
      .map((n) => JSON.stringify({ description: "x".repeat(n) })),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '{"amount":{"amount":1e999999,"currency":"RUB"},"period":{"unit":"month","count":1e308},"method":"card","providerMethodRef":"pm_fuzz_huge_numbers"}',
      '{"amount":{"amount":-0,"currency":"RUB"}}',
      '{"amount":{"amount":"123456789012345678901234567890","currency":"RUB"}}',
      '{"__proto__":{"polluted":true},"amount":{"amount":"1","currency":"RUB"}}',
      '{"constructor":{"prototype":{"polluted":true}},"amount":{"amount":"1","currency":"RUB"}}',
      '{"amount":{"amount":"1","currency":"RUB"},"metadata":{"__proto__":"x","constructor":"y","toString":"z"}}',
      '{"amount":{"amount":"1","currency":"RUB"},"amount":{"amount":"2","currency":"RUB"}}',
      '{"amount":{"amount":"١٢٣","currency":"RUB"}}',
      '{"amount":{"amount":"149900","currency":"RUB"},"description":"\\ud800\\udc00\\ud800"}',
      '\ufeff{"amount":{"amount":"1","currency":"RUB"}}',
      "",
      " ",
      "null",
      "[]",
      '"string"',
      "{",
    ),
  },
);

const authorization = (t: FuzzTargets) =>
  fc.oneof(
    {
      weight: 8,
      arbitrary: fc.constantFrom(`Bearer ${t.apiKey}`, `bearer ${t.apiKey}`, `BEARER ${t.apiKey}`),
    },
    {
      weight: 3,
      arbitrary: fc.oneof(
        fc.constant(""),
        fc.constant("Bearer"),
        fc.constant("Bearer "),
        fc.constant(`Basic ${Buffer.from("a:b").toString("base64")}`),
        fc.constant(`Bearer ${t.apiKey.slice(0, -1)}${t.apiKey.endsWith("a") ? "b" : "a"}`), // bad checksum
        fc.constant(`Bearer ${t.apiKey} extra`),
        fc.constant(`Bearer  ${t.apiKey}`),
        fc.constant("Bearer kopek_ключключключключключключключключключключ"),
        fc.string({ unit: "grapheme", maxLength: 80 }).map((s) => `Bearer ${s}`),
        fc.integer({ min: 1000, max: 20_000 }).map((n) => `Bearer ${"k".repeat(n)}`),
      ),
    },
  );

const idempotencyKey = fc.oneof(
  { weight: 8, arbitrary: fc.uuid() },
  {
    weight: 4,
    arbitrary: fc.oneof(
      fc.constant(""),
      fc.constant(" "),
      fc.string({
        minLength: 1,
        maxLength: 255,
        unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)),
      }),
      fc.integer({ min: 256, max: 5000 }).map((n) => "k".repeat(n)),
      fc.constantFrom(
        "ключ",
        "clé-é",
        "emoji-😀",
        "tab\tinside",
        "a,b",
        "nul\u0000inside",
        "order-4111-1111-1111-1111",
      ),
      fc.string({ unit: "grapheme", maxLength: 30 }),
    ),
  },
);

const contentType = fc.oneof(
  { weight: 8, arbitrary: fc.constant("application/json") },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      "application/json; charset=utf-8",
      "APPLICATION/JSON",
      "application/json;;;",
      "application/json; charset=latin1",
      "application/problem+json",
      "application/x-www-form-urlencoded",
      "multipart/form-data; boundary=x",
      "text/plain",
      "",
      "*/*",
      "application/json\u00e9",
    ),
  },
);

/** A header line that may be missing, given once, or twice. */
const present = <T>(value: fc.Arbitrary<T>) =>
  fc
    .tuple(fc.constantFrom(0, 1, 1, 1, 1, 1, 1, 2), value, value)
    .map(([times, a, b]) => [a, b].slice(0, times));

const path = (t: FuzzTargets) =>
  fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...ROUTES) },
    {
      weight: 3,
      arbitrary: fc.constantFrom(
        `/v1/subscriptions/${t.subscriptionId}`,
        `/v1/invoices/${t.invoiceId}`,
        `/v1/subscriptions/${t.subscriptionId}/cancel`,
        `/v1/invoices/${t.invoiceId}/cancel`,
        "/v1/invoices?limit=0",
        "/v1/invoices?limit=100&status=paid",
        "/v1/subscriptions?cursor=%FF%FE&limit=abc",
        "/v1/invoices?__proto__=1&constructor=2",
        "/v1/invoices?limit=1&limit=2",
        "/healthz",
        "/readyz",
        "/openapi.json",
        "/docs",
        "/v1",
        "/v2/invoices",
        "/%zz",
        "/v1/invoices/../subscriptions",
        "/v1/invoices/%00",
        "/v1/invoices with spaces",
        "*",
      ),
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(fc.constantFrom(...ROUTES), fc.webSegment(), fc.webQueryParameters())
        .map(([route, segment, query]) => `${route}/${segment}${query === "" ? "" : `?${query}`}`),
    },
  );

/**
 * A create with every header right and a valid body but for awkward text in its description and
 * metadata: what gets past everything else to storage (NUL there was a 500 on PostgreSQL, issue 38).
 */
const awkwardCreate = (t: FuzzTargets): fc.Arbitrary<RawRequest> =>
  fc
    .tuple(
      fc.oneof(
        validSubscription.map((body) => ["/v1/subscriptions", body] as const),
        validInvoice.map((body) => ["/v1/invoices", body] as const),
      ),
      fc.oneof(awkwardTextArb, fc.string({ maxLength: 20 })),
      fc.dictionary(
        awkwardTextArb.map((key) => key.slice(0, 40)),
        fc.oneof(awkwardTextArb, longTextArb),
        { maxKeys: 3 },
      ),
      fc.uuid(),
    )
    .map(([[path, body], description, metadata, key]) => ({
      method: "POST",
      path,
      headers: [
        ["Authorization", `Bearer ${t.apiKey}`],
        ["Idempotency-Key", key],
        ["Content-Type", "application/json"],
      ],
      body: JSON.stringify({ ...body, description, metadata }),
    }));

/** One adversarial request: method, path, headers (missing, odd, doubled) and body. */
export function requestArbitrary(t: FuzzTargets): fc.Arbitrary<RawRequest> {
  return fc.oneof({ weight: 6, arbitrary: anyRequest(t) }, { weight: 1, arbitrary: awkwardCreate(t) });
}

function anyRequest(t: FuzzTargets): fc.Arbitrary<RawRequest> {
  return fc
    .record({
      method: fc.oneof(
        { weight: 12, arbitrary: fc.constant("POST") },
        { weight: 5, arbitrary: fc.constant("GET") },
        { weight: 1, arbitrary: fc.constantFrom("PUT", "DELETE", "PATCH", "HEAD", "OPTIONS") },
      ),
      path: path(t),
      authorization: present(authorization(t)),
      idempotencyKey: present(idempotencyKey),
      contentType: present(contentType),
      requestId: fc.option(
        fc.oneof(fc.string({ unit: "grapheme", maxLength: 200 }), fc.constantFrom(...PLANTED_SECRETS)),
        {
          nil: undefined,
        },
      ),
      body: bodyText,
    })
    .map((r) => {
      const headers: Array<readonly [string, string]> = [
        ...r.authorization.map((v) => ["Authorization", v] as const),
        ...r.idempotencyKey.map((v) => ["Idempotency-Key", v] as const),
        ...r.contentType.map((v) => ["Content-Type", v] as const),
        ...(r.requestId === undefined ? [] : [["X-Request-Id", r.requestId] as const]),
      ];
      return { method: r.method, path: r.path, headers, ...(r.body === undefined ? {} : { body: r.body }) };
    });
}
