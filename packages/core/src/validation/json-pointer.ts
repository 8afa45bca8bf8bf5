import { redactCardNumbers } from "./card-guard.js";

/**
 * Formats a path into a request body as a JSON Pointer in URI-fragment form (RFC 6901 §6): `#/a/0/b`.
 * A card number in an object key is replaced by `[REDACTED]`, so an error never echoes card data; a
 * lone surrogate (`storable-text.ts`) by U+FFFD, which percent-encoding can encode.
 */
export function toPointer(path: readonly PropertyKey[]): string {
  let pointer = "#";
  for (const segment of path) {
    const escaped = redactCardNumbers(String(segment).toWellFormed())
      .replaceAll("~", "~0")
      .replaceAll("/", "~1");
    pointer += `/${encodeURIComponent(escaped).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)}`;
  }
  return pointer;
}
