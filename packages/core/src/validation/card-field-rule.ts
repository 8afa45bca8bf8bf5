import type { FieldIssue } from "../api/errors.js";
import { containsCardNumber } from "./card-guard.js";
import { toPointer } from "./json-pointer.js";

/**
 * The one card-data rule of every request body (API.md 4, `card_number_not_allowed`): no string in
 * the body — value or object key, at any depth — may hold a card number. It walks the raw body rather
 * than being repeated on each field's schema, so a field added later is covered without anyone
 * remembering to; `validate.ts` applies it to every request it validates, on the fast path too.
 *
 * Only values whose format already forbids free text are skipped, because some of them are legitimately
 * digit runs that may pass Luhn: a Money's `amount` (up to 18 digits), the invoice's `expiresAt`
 * (an ISO timestamp with an offset holds 13 digits after its `T`). UUIDs anywhere are ids (`card-guard.ts`).
 */
const NOT_FREE_TEXT = [/\/amount\/amount$/, /^#\/expiresAt$/];

const DETAIL = "must not contain a card number; send the provider's token, never card data";

/** One `card_number_not_allowed` issue per string of `body` that holds a card number. */
export function cardNumberIssues(body: unknown): FieldIssue[] {
  const issues: FieldIssue[] = [];
  walk(body, [], issues);
  return issues;
}

// `path` is one array pushed and popped on the way down: most bodies hold no card number, and a
// pointer (or a copy of the path) is made only for a string that does.
function walk(node: unknown, path: PropertyKey[], issues: FieldIssue[]): void {
  if (typeof node === "string") {
    if (!holdsCardNumber(node)) return;
    const pointer = toPointer(path);
    if (!NOT_FREE_TEXT.some((pattern) => pattern.test(pointer))) {
      issues.push({ pointer, code: "card_number_not_allowed", detail: DETAIL });
    }
    return;
  }
  if (node === null || typeof node !== "object") return;
  if (Array.isArray(node)) {
    for (let index = 0; index < node.length; index++) {
      path.push(index);
      walk(node[index], path, issues);
      path.pop();
    }
    return;
  }
  for (const key in node) {
    if (!Object.hasOwn(node, key)) continue;
    path.push(key);
    if (holdsCardNumber(key)) {
      issues.push({ pointer: toPointer(path), code: "card_number_not_allowed", detail: `key ${DETAIL}` });
    } else {
      walk((node as Record<string, unknown>)[key], path, issues);
    }
    path.pop();
  }
}

/** Also looks through percent-encoding, so "4111%201111%20…" in a URL is caught like its decoded self. */
function holdsCardNumber(text: string): boolean {
  if (containsCardNumber(text)) return true;
  if (!text.includes("%")) return false;
  try {
    return containsCardNumber(decodeURIComponent(text));
  } catch {
    return containsCardNumber(text.replaceAll(/%[0-9A-Fa-f]{2}/g, " "));
  }
}
