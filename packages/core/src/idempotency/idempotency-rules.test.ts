// @kopek/testing's fixtures by path: that package depends on core, so core cannot depend on it.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { cardNumberArb } from "../../../testing/src/card-numbers.js";
import { canonicalJson } from "./canonical-json.js";
import {
  answerFromRecord,
  fingerprintRequest,
  isAbandoned,
  replay,
  validateIdempotencyKeyHeader,
} from "./idempotency-rules.js";

describe("validateIdempotencyKeyHeader", () => {
  it("accepts 1 to 255 printable ASCII characters", () => {
    fc.assert(
      fc.property(
        fc.string({
          unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)),
          minLength: 1,
          maxLength: 255,
        }),
        (key) => {
          expect(validateIdempotencyKeyHeader(key).isOk()).toBe(true);
        },
      ),
    );
  });

  it("refuses missing, empty, too long and non-printable keys with the right code", () => {
    expect(validateIdempotencyKeyHeader(undefined)._unsafeUnwrapErr().code).toBe("idempotency_key_missing");
    for (const key of ["", "k".repeat(256), "ключ", "a\tb", "a\u007fb"]) {
      expect(validateIdempotencyKeyHeader(key)._unsafeUnwrapErr().code).toBe("idempotency_key_invalid");
    }
  });

  it("accepts keys made of a Unix time and a counter, whatever their digits (the README's pattern)", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1_000_000_000, max: 9_999_999_999 }), fc.nat(), (time, counter) => {
        expect(validateIdempotencyKeyHeader(`quickstart-${time}-${counter}`).isOk()).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it("refuses a key holding a card number as a card number anywhere else is refused; UUIDs pass", () => {
    const written = fc
      .tuple(cardNumberArb, fc.constantFrom("", "-", " ", "--", ")("))
      .map(([card, sep]) => card.replace(/(\d{4})(?=\d)/g, `$1${sep}`));
    fc.assert(
      fc.property(written, fc.constantFrom("", "order-", "pay "), (card, prefix) => {
        expect(validateIdempotencyKeyHeader(prefix + card)._unsafeUnwrapErr()).toEqual({
          code: "validation_failed",
          errors: [
            { pointer: "#/Idempotency-Key", code: "card_number_not_allowed", detail: expect.any(String) },
          ],
        });
      }),
    );
    fc.assert(
      fc.property(fc.uuid(), (key) => {
        expect(validateIdempotencyKeyHeader(key).isOk()).toBe(true);
      }),
    );
    // Digit-heavy UUIDs, whose segments are written as a card is: one random UUID in ~3,000 is one.
    const digitHex = fc.constantFrom(..."0123456789a");
    const segment = (n: number) => fc.string({ unit: digitHex, minLength: n, maxLength: n });
    const uuid = fc.tuple(segment(8), segment(4), segment(3), segment(3), segment(12));
    fc.assert(
      fc.property(uuid, ([a, b, c, d, e]) => {
        const key = `${a}-${b}-4${c}-8${d}-${e}`;
        expect(validateIdempotencyKeyHeader(key).isOk()).toBe(true);
        expect(validateIdempotencyKeyHeader(key.toUpperCase()).isOk()).toBe(true);
      }),
      { numRuns: 2000 },
    );
    expect(validateIdempotencyKeyHeader("abcd0005-5678-4012-8a56-abcdefabcdef").isOk()).toBe(true);
  });
});

describe("fingerprintRequest", () => {
  it("is the same for the same JSON however it is ordered or formatted", () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), (object) => {
        const reversed = Object.fromEntries(Object.entries(object).reverse());
        const reparsed = JSON.parse(JSON.stringify(reversed, null, 2)) as unknown;
        expect(fingerprintRequest("POST", "/v1/invoices", canonicalJson(reparsed))).toBe(
          fingerprintRequest("POST", "/v1/invoices", canonicalJson(object)),
        );
      }),
    );
  });

  it("differs by path, method and body", () => {
    const base = fingerprintRequest("POST", "/v1/invoices", "{}");
    expect(fingerprintRequest("POST", "/v1/subscriptions", "{}")).not.toBe(base);
    expect(fingerprintRequest("PUT", "/v1/invoices", "{}")).not.toBe(base);
    expect(fingerprintRequest("POST", "/v1/invoices", '{"a":1}')).not.toBe(base);
  });
});

describe("answerFromRecord", () => {
  const response = { status: 201, headers: { location: "/v1/invoices/x" }, body: "{}" };
  it("replays a completed match and refuses the rest", () => {
    const completed = { state: "completed", fingerprint: "f", response } as const;
    expect(answerFromRecord(completed, "f")).toEqual({ action: "replay", response });
    expect(answerFromRecord(completed, "g")).toMatchObject({
      action: "refuse",
      error: { code: "idempotency_key_reused" },
    });
    const running = { state: "in_progress", fingerprint: "f", leaseExpiresAt: new Date() } as const;
    expect(answerFromRecord(running, "f")).toMatchObject({
      error: { code: "idempotency_request_in_progress" },
    });
    expect(answerFromRecord(running, "g")).toMatchObject({ error: { code: "idempotency_key_reused" } });
  });

  it("takes over only this request's execution whose lease ran out", () => {
    const at = new Date("2026-01-01T00:00:30Z");
    const running = { state: "in_progress", fingerprint: "f", leaseExpiresAt: at } as const;
    expect(isAbandoned(running, "f", at)).toBe(true);
    expect(isAbandoned(running, "f", new Date(at.getTime() - 1))).toBe(false);
    expect(isAbandoned(running, "g", at)).toBe(false);
    expect(isAbandoned({ state: "completed", fingerprint: "f", response }, "f", at)).toBe(false);
  });

  it("replays a 201 as 200 with the stored headers and bytes, other statuses as they are", () => {
    expect(replay(response)).toEqual({
      status: 200,
      headers: { location: "/v1/invoices/x", "idempotent-replayed": "true" },
      body: "{}",
    });
    expect(replay({ ...response, status: 422 }).status).toBe(422);
  });
});
