/**
 * The JSON text of `value` with object keys sorted by UTF-16 code units (the RFC 8785 order) and no
 * whitespace, so that two bodies that differ only in key order or formatting get one fingerprint.
 * Otherwise it follows `JSON.stringify`: `toJSON` is honoured, undefined properties are left out,
 * undefined array items become null.
 *
 * It runs on every request. Plain JSON data (what `JSON.parse` makes) goes through the native
 * `JSON.stringify`, after objects whose keys are out of order are copied with their keys sorted;
 * anything else (a `toJSON`, a key `JSON.stringify` would not keep in insertion order, …) through a
 * writer of its own. Both give the same text.
 *
 * A request without a body (top-level undefined) gives the empty string: no JSON text is empty, so a
 * missing body can never share a fingerprint with a body that was sent.
 */
export function canonicalJson(value: unknown): string {
  const sorted = sortedPlainCopy(value);
  if (sorted !== NOT_PLAIN) return JSON.stringify(sorted);
  return writeCanonical(value);
}

/** Marks a value `sortedPlainCopy` leaves to the writer. */
const NOT_PLAIN: unique symbol = Symbol("not plain JSON data");

/**
 * `value` itself when every object in it already has its keys in order, else a copy with those
 * objects' keys sorted (what is in order is shared, not copied); NOT_PLAIN when `JSON.stringify` could
 * not be trusted to write it canonically: an object that is not a plain one (a Date, a class), a
 * function (a `toJSON` among them), a key it would reorder (an array index: objects list those first, numerically) or one a
 * copy cannot hold as data (`__proto__`), or a value with no JSON text of its own.
 */
function sortedPlainCopy(value: unknown): unknown {
  switch (typeof value) {
    case "string":
    case "number":
    case "boolean":
      return value;
    case "object":
      break;
    default:
      return NOT_PLAIN;
  }
  if (value === null) return value;
  if (Array.isArray(value)) {
    let copy: unknown[] | null = null;
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      const sorted = sortedPlainCopy(item);
      if (sorted === NOT_PLAIN) return NOT_PLAIN;
      if (sorted !== item) {
        copy ??= value.slice();
        copy[i] = sorted;
      }
    }
    return copy ?? value;
  }
  if (Object.getPrototypeOf(value) !== Object.prototype) return NOT_PLAIN;
  const object = value as Record<string, unknown>;
  const keys = Object.keys(object);
  for (const key of keys) {
    const first = key.charCodeAt(0);
    // A digit first may be an array index; assigning `__proto__` to a copy would set its prototype.
    if ((first >= 0x30 && first <= 0x39) || key === "__proto__") return NOT_PLAIN;
  }
  const inOrder = isSorted(keys);
  if (!inOrder) sortKeys(keys);
  let copy: Record<string, unknown> | null = inOrder ? null : {};
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as string;
    const item = object[key];
    const sorted = sortedPlainCopy(item);
    if (sorted === NOT_PLAIN) return NOT_PLAIN;
    if (copy === null && sorted !== item) {
      copy = {};
      for (let j = 0; j < i; j++) copy[keys[j] as string] = object[keys[j] as string];
    }
    if (copy !== null) copy[key] = sorted;
  }
  return copy ?? object;
}

// The writer for what JSON.stringify cannot be trusted with.
function writeCanonical(value: unknown): string {
  // A reentrant toJSON (one that canonicalises something itself) gets pieces of its own.
  const pieces = shared.busy ? new Pieces() : shared;
  pieces.busy = true;
  try {
    return write(value, "", pieces) ? pieces.take() : "";
  } finally {
    pieces.reset();
    pieces.busy = false;
  }
}

/**
 * The text gathered as pieces and joined once: one flat string, instead of a cons string per `+=`
 * (canonicalisation was the largest allocator of a create). The array is kept between calls with its
 * capacity (emptying it with `length = 0` would free it, and the next call would grow it again).
 */
class Pieces {
  readonly #items: string[] = [];
  count = 0;
  busy = false;

  add(text: string): void {
    this.#items[this.count++] = text;
  }

  take(): string {
    // Drops what lies past `count`: a rolled-back key, or the tail of a longer earlier text.
    this.#items.length = this.count;
    return this.#items.join("");
  }

  /** Forgets every piece (the request's strings are not kept alive), keeping the array's capacity. */
  reset(): void {
    this.#items.fill("");
    this.count = 0;
  }
}

const shared = new Pieces();

// `key` is passed to toJSON, as JSON.stringify does; array indexes stay numbers until then. False
// when the value has no JSON text (undefined, a function, a symbol), which then writes nothing.
function write(input: unknown, key: string | number, parts: Pieces): boolean {
  const value = hasToJson(input) ? input.toJSON(String(key)) : input;
  switch (typeof value) {
    case "string":
      addQuoted(parts, value);
      return true;
    case "number":
    case "boolean":
      parts.add(JSON.stringify(value));
      return true;
    case "bigint":
      throw new TypeError("canonicalJson: a bigint has no JSON form");
    case "object":
      if (value === null) parts.add("null");
      else if (Array.isArray(value)) writeArray(value, parts);
      else writeObject(value as Record<string, unknown>, parts);
      return true;
    default:
      return false;
  }
}

function writeArray(array: readonly unknown[], parts: Pieces): void {
  parts.add("[");
  for (let i = 0; i < array.length; i++) {
    if (i > 0) parts.add(",");
    if (!write(array[i], i, parts)) parts.add("null");
  }
  parts.add("]");
}

function writeObject(object: Record<string, unknown>, parts: Pieces): void {
  const keys = Object.keys(object);
  // The default sort compares UTF-16 code units, which is exactly the order RFC 8785 asks for; most
  // bodies arrive with their keys in some other order, but nested objects are often already sorted.
  if (!isSorted(keys)) sortKeys(keys);
  parts.add("{");
  let empty = true;
  for (const key of keys) {
    const mark = parts.count;
    if (!empty) parts.add(",");
    addQuoted(parts, key);
    parts.add(":");
    if (write(object[key], key, parts)) empty = false;
    else parts.count = mark;
  }
  parts.add("}");
}

// An insertion sort: a body's objects have a handful of keys, and Array.prototype.sort allocated a
// work array per call (a tenth of all a create allocated). `<` on strings compares UTF-16 code units,
// as the default sort does; long key lists still use the built-in sort.
function sortKeys(keys: string[]): void {
  if (keys.length > 32) {
    keys.sort();
    return;
  }
  for (let i = 1; i < keys.length; i++) {
    const key = keys[i] as string;
    let j = i - 1;
    while (j >= 0 && (keys[j] as string) > key) {
      keys[j + 1] = keys[j] as string;
      j--;
    }
    keys[j + 1] = key;
  }
}

function isSorted(keys: readonly string[]): boolean {
  for (let i = 1; i < keys.length; i++) if ((keys[i - 1] as string) > (keys[i] as string)) return false;
  return true;
}

// Characters JSON.stringify escapes (quote, backslash, control characters) or may rewrite (lone
// surrogates); a string without any is its own JSON text between quotes, which skips a call per field.
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
const NEEDS_ESCAPING = /["\\\u0000-\u001f\ud800-\udfff]/;

function addQuoted(parts: Pieces, text: string): void {
  if (NEEDS_ESCAPING.test(text)) {
    parts.add(JSON.stringify(text));
    return;
  }
  parts.add('"');
  parts.add(text);
  parts.add('"');
}

function hasToJson(value: unknown): value is { toJSON(key: string): unknown } {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as { toJSON?: unknown }).toJSON === "function"
  );
}
