import { expect, test } from "vitest";
import { parseQueryString } from "./query-string.js";

test("single parameters as strings, repeated ones as arrays, percent-decoded", () => {
  expect({ ...parseQueryString("limit=5&status=paid&status=created&cursor=a%2Db") }).toEqual({
    limit: "5",
    status: ["paid", "created"],
    cursor: "a-b",
  });
  expect({ ...parseQueryString("") }).toEqual({});
});

test("__proto__ is an ordinary key", () => {
  const query = parseQueryString("__proto__=1");
  expect(Object.keys(query)).toEqual(["__proto__"]);
  expect(Object.getPrototypeOf(query)).toBeNull();
});
