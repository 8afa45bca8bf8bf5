import type { StringRule } from "./body-strings.js";
import { toPointer } from "./json-pointer.js";

/**
 * The one rule of which characters a stored string may hold (API.md 4, `invalid_character`): every
 * character but NUL (U+0000) and a lone UTF-16 surrogate (U+D800–U+DFFF outside a pair). Both are valid
 * in JSON (`"\u0000"`, `"\ud800"`) and in a JavaScript string, so memory storage keeps them, but
 * PostgreSQL's text and jsonb cannot: refused at validation, every storage answers the same 422 before
 * any provider is called, rather than one of them failing its insert after a charge.
 */
export function firstUnstorableCharacter(text: string): number {
  const nul = text.indexOf("\u0000");
  if (text.isWellFormed()) return nul;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 0) return i;
    if (code < 0xd800 || code > 0xdfff) continue;
    const next = text.charCodeAt(i + 1);
    if (code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) i++;
    else return i;
  }
  return -1;
}

/** Whether storage can hold `text` (see {@link firstUnstorableCharacter}). */
export function isStorableText(text: string): boolean {
  return !text.includes("\u0000") && text.isWellFormed();
}

/** The `invalid_character` rule of every string of a request body, its keys included. */
export const storableCharacterRule: StringRule = (text, path, isKey) => {
  if (isStorableText(text)) return null;
  return { pointer: toPointer(path), code: "invalid_character", detail: unstorableDetail(text, isKey) };
};

/** Says which character, and where, without echoing the text (it may hold anything). */
export function unstorableDetail(text: string, isKey: boolean): string {
  const at = firstUnstorableCharacter(text);
  const code = text.charCodeAt(at);
  const name =
    code === 0 ? "NUL (U+0000)" : `a lone surrogate (U+${code.toString(16).toUpperCase().padStart(4, "0")})`;
  return `${isKey ? "key " : ""}holds ${name} at character ${at + 1}, which cannot be stored; remove it`;
}
