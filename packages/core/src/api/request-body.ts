import { err, ok, type Result } from "neverthrow";
import type { KopekError } from "../domain/errors.js";
import { jsonLimitViolation } from "./json-limits.js";

/** Largest accepted request body by default (API.md 4). */
export const DEFAULT_BODY_LIMIT_BYTES = 64 * 1024;

/** Whether a write takes a JSON body (a create) or may come without one (a cancel: none, or `{}`). */
export type BodyRule = "json" | "optional";

const JSON_MEDIA_TYPE = /^application\/json\s*(?:;|$)/i;
const utf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * A write's body as Kopek reads it (API.md 4): the parsed JSON, `undefined` for no body, or the
 * refusal. Too large: 413; a body in another media type: 415; not JSON, not UTF-8, or beyond the depth
 * and size limits that keep every later walk of it safe: 400 `invalid_json`. An empty body is no body
 * when the write may come without one, or when no media type is claimed for it.
 */
export function readJsonBody(
  raw: string | Uint8Array | undefined,
  contentType: string | undefined,
  rule: BodyRule,
  limitBytes: number,
): Result<unknown, KopekError> {
  const refusal = bodyRefusal(raw, contentType, rule, limitBytes);
  if (refusal !== null) return err(refusal);
  if (raw === undefined || raw.length === 0) return ok(undefined);
  let text: string;
  let parsed: unknown;
  try {
    text = typeof raw === "string" ? raw : utf8.decode(raw);
    parsed = JSON.parse(text);
  } catch {
    return err({ code: "invalid_json" });
  }
  // Text with a raw lone surrogate is not Unicode, as bytes that are not UTF-8 are not. An escaped one
  // (`"\ud800"`) is valid JSON: validation refuses it at its pointer (`invalid_character`).
  if (!text.isWellFormed()) return err({ code: "invalid_json", detail: LONE_SURROGATE });
  const violation = jsonLimitViolation(parsed);
  return violation === null ? ok(parsed) : err({ code: "invalid_json", detail: violation });
}

const LONE_SURROGATE = "the request body's text holds a lone surrogate: it must be valid Unicode";

/**
 * What `readJsonBody` refuses before it parses (size, media type, an empty body that claims to be
 * JSON where one is required), or null: all a body's bytes can be refused for besides their content.
 */
export function bodyRefusal(
  raw: string | Uint8Array | undefined,
  contentType: string | undefined,
  rule: BodyRule,
  limitBytes: number,
): KopekError | null {
  if (raw === undefined || raw.length === 0) {
    if (rule === "optional" || contentType === undefined) return null;
    return JSON_MEDIA_TYPE.test(contentType) ? { code: "invalid_json" } : null;
  }
  return envelopeRefusal(raw, contentType, limitBytes);
}

/** Why a non-empty body is refused before it is parsed (too large, or not JSON by its media type), or null. */
function envelopeRefusal(
  raw: string | Uint8Array,
  contentType: string | undefined,
  limitBytes: number,
): KopekError | null {
  if (byteLength(raw, limitBytes) > limitBytes) return { code: "payload_too_large", limitBytes };
  if (contentType === undefined || !JSON_MEDIA_TYPE.test(contentType))
    return { code: "unsupported_media_type" };
  return null;
}

// UTF-8 bytes of the body; a string short enough that even three bytes a unit fit is not encoded.
function byteLength(raw: string | Uint8Array, limitBytes: number): number {
  if (typeof raw !== "string") return raw.length;
  return raw.length * 3 <= limitBytes ? raw.length : new TextEncoder().encode(raw).length;
}
