import { MAX_DISPLAY_NAME_LENGTH } from "../domain/limits.js";
import { containsCardNumber } from "./card-guard.js";

// Controls, format characters (bidi overrides, zero-width joiners that could disguise a name),
// private-use and lone surrogates, and line or paragraph separators: nothing a payer could read.
const UNPRINTABLE = /[\p{Cc}\p{Cf}\p{Co}\p{Cs}\p{Zl}\p{Zp}]/u;

/**
 * Why `text` cannot be a project's display name (the merchant's name on the payment page), or null
 * when it can: 1–100 printable characters, not only spaces, and never a card number, since the
 * page shows it to every payer. The phrase completes "--display-name …" or "displayName …".
 */
export function displayNameProblem(text: string): string | null {
  const length = [...text].length;
  if (text.trim() === "" || length > MAX_DISPLAY_NAME_LENGTH)
    return `must be 1-${MAX_DISPLAY_NAME_LENGTH} characters, not only spaces`;
  return printableTextProblem(text);
}

/** Why `text` cannot be shown to payers as a name: unprintable characters, or a card number; else null. */
export function printableTextProblem(text: string): string | null {
  if (UNPRINTABLE.test(text)) return "must contain printable characters only";
  if (containsCardNumber(text)) return "must not contain a card number";
  return null;
}
