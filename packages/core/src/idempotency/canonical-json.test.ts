import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalJson } from "./canonical-json.js";

/** The same value with every object's keys in a random order. */
function shuffleKeys(value: unknown, random: () => number): unknown {
  if (Array.isArray(value)) return value.map((item) => shuffleKeys(item, random));
  if (typeof value !== "object" || value === null) return value;
  const entries = Object.entries(value);
  for (let i = entries.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [entries[i], entries[j]] = [entries[j] as [string, unknown], entries[i] as [string, unknown]];
  }
  return Object.fromEntries(entries.map(([key, item]) => [key, shuffleKeys(item, random)]));
}

const jsonArb = fc.jsonValue().map((value) => JSON.parse(JSON.stringify(value)) as unknown);

describe("canonicalJson", () => {
  it("sorts keys at every level and writes no whitespace", () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: true, y: null }], c: "x" } })).toBe(
      '{"a":{"c":"x","d":[3,{"y":null,"z":true}]},"b":1}',
    );
    expect(canonicalJson(JSON.parse('{ "amount" : { "currency":"RUB", "amount":"100" } }'))).toBe(
      '{"amount":{"amount":"100","currency":"RUB"}}',
    );
  });

  it("orders keys by UTF-16 code units, not by locale or code point", () => {
    // U+FF61 sorts after U+1F600 (a surrogate pair starting 0xD83D) in UTF-16, before it by code point.
    expect(canonicalJson({ "\uff61": 1, "😀": 2, a: 3, B: 4, "10": 5, "9": 6 })).toBe(
      '{"10":5,"9":6,"B":4,"a":3,"😀":2,"｡":1}',
    );
    // The empty key sorts before every other, array indexes included (an object lists "0" first).
    expect(canonicalJson(JSON.parse('{"0":"","":"","a":{"1":1,"":0}}'))).toBe(
      '{"":"","0":"","a":{"":0,"1":1}}',
    );
  });

  it("sorts what JSON.stringify alone would not: array-index keys, __proto__, values with toJSON", () => {
    // Objects list array-index keys first, numerically; the canonical order is by code units.
    expect(canonicalJson({ b: { "10": 1, "9": 2, x: 3 }, a: [{ "2": 0, "1": 0 }] })).toBe(
      '{"a":[{"1":0,"2":0}],"b":{"10":1,"9":2,"x":3}}',
    );
    expect(canonicalJson(JSON.parse('{"z":1,"__proto__":{"b":2,"a":1}}'))).toBe(
      '{"__proto__":{"a":1,"b":2},"z":1}',
    );
    expect(canonicalJson({ z: new Date(0), a: { toJSON: () => ({ d: 1, c: 2 }) } })).toBe(
      '{"a":{"c":2,"d":1},"z":"1970-01-01T00:00:00.000Z"}',
    );
    const shared = { y: 1, x: 2 };
    expect(canonicalJson({ q: shared, p: [shared, shared] })).toBe(
      '{"p":[{"x":2,"y":1},{"x":2,"y":1}],"q":{"x":2,"y":1}}',
    );
    expect(shared).toEqual({ y: 1, x: 2 });
    expect(Object.keys(shared)).toEqual(["y", "x"]);
  });

  it("writes scalars and escapes as JSON.stringify does", () => {
    for (const value of ['a"b\\c\n\u0001', "\ud800", 1.5, -0, 1e21, 5e-7, 0.1, true, false, null, [], {}]) {
      expect(canonicalJson(value)).toBe(JSON.stringify(value));
    }
  });

  it("leaves out undefined properties and writes undefined array items as null", () => {
    expect(canonicalJson({ a: undefined, b: 1, c: () => 1 })).toBe('{"b":1}');
    expect(canonicalJson({ a: undefined })).toBe("{}");
    expect(canonicalJson([undefined, 1])).toBe("[null,1]");
    expect(canonicalJson({ at: new Date("2026-01-02T03:04:05.000Z") })).toBe(
      '{"at":"2026-01-02T03:04:05.000Z"}',
    );
  });

  it("survives a toJSON that canonicalises something itself, and one that throws", () => {
    const nested = { toJSON: () => canonicalJson({ b: 2, a: 1 }) };
    expect(canonicalJson({ z: nested, y: [nested] })).toBe(
      '{"y":["{\\"a\\":1,\\"b\\":2}"],"z":"{\\"a\\":1,\\"b\\":2}"}',
    );
    const throwing = {
      toJSON: () => {
        throw new Error("no");
      },
    };
    expect(() => canonicalJson({ a: throwing })).toThrow("no");
    expect(canonicalJson({ b: 1, a: [true, "x"] })).toBe('{"a":[true,"x"],"b":1}');
  });

  it("writes a missing body as the empty string and refuses bigints", () => {
    expect(canonicalJson(undefined)).toBe("");
    expect(canonicalJson(null)).toBe("null");
    expect(() => canonicalJson({ a: 1n })).toThrow(TypeError);
  });

  it("survives 1000 levels of nesting", () => {
    const depth = 1000;
    const arrays = `${"[".repeat(depth)}${"]".repeat(depth)}`;
    expect(canonicalJson(JSON.parse(arrays))).toBe(arrays);
    const objects = `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;
    expect(canonicalJson(JSON.parse(objects))).toBe(objects);
  });

  it("gives one text for every key order and formatting of the same value", () => {
    fc.assert(
      fc.property(jsonArb, fc.integer(), fc.integer({ min: 0, max: 4 }), (value, seed, indent) => {
        const random = mulberry32(seed);
        const reformatted = JSON.parse(JSON.stringify(shuffleKeys(value, random), null, indent));
        expect(canonicalJson(reformatted)).toBe(canonicalJson(value));
      }),
    );
  });

  it("matches a reference writer over sorted keys, for any key and string (escapes, lone surrogates, array indexes)", () => {
    // Written out by hand: an object rebuilt with sorted entries would list array-index keys ("0")
    // first again, before "" — the order canonicalJson must not take from the engine.
    const sortedReference = (value: unknown): string => {
      if (Array.isArray(value)) return `[${value.map(sortedReference).join(",")}]`;
      if (typeof value !== "object" || value === null) return JSON.stringify(value);
      const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${sortedReference(item)}`).join(",")}}`;
    };
    const text = fc.string({
      unit: fc.oneof(
        fc.constantFrom('"', "\\", "\n", "\u0000", "\u001f", "\u007f", "\ud800", "\udfff", "\u2028"),
        fc.integer({ min: 0, max: 0x10ffff }).map((point) => String.fromCodePoint(point)),
        fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code)),
      ),
    });
    // Digit keys next to others: objects list array indexes first, whatever their insertion order.
    const key = fc.oneof(text, fc.constantFrom("", "0", "1", "10", "9", "01", "-1", "4294967295"));
    const value = fc.letrec((tie) => ({
      node: fc.oneof(
        { depthSize: "small" },
        text,
        fc.dictionary(key, tie("node")),
        fc.array(tie("node"), { maxLength: 4 }),
      ),
    })).node;
    fc.assert(
      fc.property(value, (input) => {
        expect(canonicalJson(input)).toBe(sortedReference(input));
      }),
      { numRuns: 500 },
    );
  });

  it("parses back to the same value", () => {
    fc.assert(
      fc.property(jsonArb, (value) => {
        const text = canonicalJson(value);
        expect(JSON.parse(text)).toStrictEqual(value);
        expect(text).toHaveLength(JSON.stringify(value).length);
      }),
    );
  });
});

function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
