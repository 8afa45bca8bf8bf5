/**
 * The JSON text of `value` with object keys sorted by UTF-16 code units (the RFC 8785 order) and no
 * whitespace, so that two bodies that differ only in key order or formatting get one fingerprint.
 * Otherwise it follows `JSON.stringify`: `toJSON` is honoured, undefined properties are left out,
 * undefined array items become null. It runs on every request, hence a direct writer rather than
 * `JSON.stringify` with a replacer that copies every object to sort it.
 *
 * A request without a body (top-level undefined) gives the empty string: no JSON text is empty, so a
 * missing body can never share a fingerprint with a body that was sent.
 */
export function canonicalJson(value: unknown): string {
  return write(value, "") ?? "";
}

// `key` is passed to toJSON, as JSON.stringify does; array indexes stay numbers until then.
function write(input: unknown, key: string | number): string | undefined {
  const value = hasToJson(input) ? input.toJSON(String(key)) : input;
  switch (typeof value) {
    case "string":
      return quote(value);
    case "number":
    case "boolean":
      return JSON.stringify(value);
    case "bigint":
      throw new TypeError("canonicalJson: a bigint has no JSON form");
    case "object":
      if (value === null) return "null";
      return Array.isArray(value) ? writeArray(value) : writeObject(value as Record<string, unknown>);
    default:
      return undefined;
  }
}

function writeArray(array: readonly unknown[]): string {
  let out = "[";
  for (let i = 0; i < array.length; i++) {
    if (i > 0) out += ",";
    out += write(array[i], i) ?? "null";
  }
  return `${out}]`;
}

function writeObject(object: Record<string, unknown>): string {
  const keys = Object.keys(object);
  // The default sort compares UTF-16 code units, which is exactly the order RFC 8785 asks for; most
  // bodies arrive with their keys in some other order, but nested objects are often already sorted.
  if (!isSorted(keys)) keys.sort();
  let out = "{";
  for (const key of keys) {
    const text = write(object[key], key);
    if (text === undefined) continue;
    if (out.length > 1) out += ",";
    out += `${quote(key)}:${text}`;
  }
  return `${out}}`;
}

function isSorted(keys: readonly string[]): boolean {
  for (let i = 1; i < keys.length; i++) if ((keys[i - 1] as string) > (keys[i] as string)) return false;
  return true;
}

// Characters JSON.stringify escapes (quote, backslash, control characters) or may rewrite (lone
// surrogates); a string without any is its own JSON text between quotes, which skips a call per field.
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
const NEEDS_ESCAPING = /["\\\u0000-\u001f\ud800-\udfff]/;

function quote(text: string): string {
  return NEEDS_ESCAPING.test(text) ? JSON.stringify(text) : `"${text}"`;
}

function hasToJson(value: unknown): value is { toJSON(key: string): unknown } {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as { toJSON?: unknown }).toJSON === "function"
  );
}
