import { createHash, timingSafeEqual } from "node:crypto";

/** A request's or a notification's root-level fields, as JSON has them. */
export type TokenFields = Readonly<Record<string, unknown>>;

/**
 * T-Bank's `Token` (developer.tbank.ru/eacq/intro/developer/token): the root-level fields' values — nested
 * objects and arrays (`Receipt`, `DATA`) left out, and `Token` itself — with `Password` added, sorted by
 * field name, concatenated without separators, SHA-256 in lowercase hex. Booleans count as `true`/`false`
 * and numbers as JSON writes them; absent (null or undefined) fields are left out as they are not sent.
 */
export function tokenOf(fields: TokenFields, password: string): string {
  const pairs: [string, string][] = [["Password", password]];
  for (const [name, value] of Object.entries(fields)) {
    if (name === "Token" || value === null || value === undefined || typeof value === "object") continue;
    pairs.push([name, String(value)]);
  }
  pairs.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return createHash("sha256")
    .update(pairs.map(([, value]) => value).join(""), "utf8")
    .digest("hex");
}

/** `fields` with its `Token`, as a request is sent. */
export function signed<T extends TokenFields>(fields: T, password: string): T & { Token: string } {
  return { ...fields, Token: tokenOf(fields, password) };
}

/** Whether `fields.Token` is the token of the other fields, compared in constant time. */
export function hasValidToken(fields: TokenFields, password: string): boolean {
  const given = fields.Token;
  if (typeof given !== "string" || !/^[0-9a-fA-F]{64}$/.test(given)) return false;
  const expected = Buffer.from(tokenOf(fields, password), "hex");
  return timingSafeEqual(expected, Buffer.from(given.toLowerCase(), "hex"));
}
