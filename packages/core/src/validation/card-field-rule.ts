import type { FieldIssue } from "../domain/errors.js";
import { type StringRule, stringIssues } from "./body-strings.js";
import { containsCardNumber } from "./card-guard.js";
import { toPointer } from "./json-pointer.js";

/**
 * The one card-data rule of every request body (API.md 4, `card_number_not_allowed`): no string in
 * the body — value or object key, at any depth — may hold a card number. `validate.ts` applies it to
 * every string of every request it validates (`body-strings.ts`), on the fast path too.
 *
 * Only values whose format already forbids free text are skipped, because some of them are legitimately
 * digit runs that may pass Luhn: a Money's `amount` (up to 18 digits), the invoice's `expiresAt`
 * (an ISO timestamp with an offset holds 13 digits after its `T`). UUIDs anywhere are ids (`card-guard.ts`).
 */
const NOT_FREE_TEXT = [/\/amount\/amount$/, /^#\/expiresAt$/];

const DETAIL = "must not contain a card number; send the provider's token, never card data";

/** One `card_number_not_allowed` issue per string of `body` that holds a card number. */
export function cardNumberIssues(body: unknown): FieldIssue[] {
  return stringIssues(body, [cardNumberRule]);
}

/** The card-data rule over one string of a body (`body-strings.ts` walks every one). */
export const cardNumberRule: StringRule = (text, path, isKey) => {
  if (!holdsCardNumber(text)) return null;
  const pointer = toPointer(path);
  if (isKey) return { pointer, code: "card_number_not_allowed", detail: `key ${DETAIL}` };
  return NOT_FREE_TEXT.some((pattern) => pattern.test(pointer))
    ? null
    : { pointer, code: "card_number_not_allowed", detail: DETAIL };
};

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
