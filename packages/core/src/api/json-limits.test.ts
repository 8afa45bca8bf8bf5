import { expect, test } from "vitest";
import { jsonLimitViolation, MAX_JSON_DEPTH, MAX_JSON_MEMBERS } from "./json-limits.js";

const nested = (levels: number) => JSON.parse(`${"[".repeat(levels)}${"]".repeat(levels)}`);

test("nesting up to the limit passes; one level more is refused", () => {
  expect(jsonLimitViolation(nested(MAX_JSON_DEPTH))).toBeNull();
  expect(jsonLimitViolation(nested(MAX_JSON_DEPTH + 1))).toMatch(/nested deeper than 32 levels/);
  expect(jsonLimitViolation({ a: { b: nested(MAX_JSON_DEPTH) } })).toMatch(/nested deeper/);
});

test("a body 30,000 levels deep is refused without exhausting the stack", () => {
  expect(jsonLimitViolation(nested(30_000))).toMatch(/nested deeper/);
});

test("keys and array elements are counted together, across the whole body", () => {
  const keys = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, "v"]));
  expect(jsonLimitViolation({ metadata: keys(MAX_JSON_MEMBERS - 1) })).toBeNull();
  expect(jsonLimitViolation({ metadata: keys(MAX_JSON_MEMBERS) })).toMatch(/more than 1000 keys/);
  expect(jsonLimitViolation({ a: keys(600), b: Array(600).fill(0) })).toMatch(/more than 1000/);
  expect(jsonLimitViolation("just a string")).toBeNull();
});
