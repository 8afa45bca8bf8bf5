import fc from "fast-check";
import { expect, test } from "vitest";
import { withHeader } from "./with-header.js";

const headerName = fc.stringMatching(/^[a-z][a-z0-9-]{0,20}$/);
const headers = fc.dictionary(headerName, fc.string(), { maxKeys: 8 });

test("the same headers as a spread, in the same order, with the new one last or replaced in place", () => {
  fc.assert(
    fc.property(headers, headerName, fc.string(), (given, name, value) => {
      const before = { ...given };
      const copy = withHeader(given, name, value);
      const spread = { ...given, [name]: value };
      expect(Object.entries(copy)).toEqual(Object.entries(spread));
      // The headers given are not changed, and the copy is not them.
      expect(given).toEqual(before);
      expect(copy).not.toBe(given);
    }),
  );
});

test("a replay's header is added to a stored response's headers", () => {
  const stored = JSON.parse('{"content-type":"application/json; charset=utf-8","location":"/v1/invoices/1"}');
  expect(withHeader(stored, "idempotent-replayed", "true")).toEqual({
    "content-type": "application/json; charset=utf-8",
    location: "/v1/invoices/1",
    "idempotent-replayed": "true",
  });
});
