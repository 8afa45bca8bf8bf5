import { err, ok, type Result } from "neverthrow";
import { isUuid } from "../crypto/uuid-v7.js";
import type { FieldIssue, KopekErrorOf } from "../domain/errors.js";

/** A page request for a list endpoint (API.md 6): newest first, keyset-paged by id. */
export interface ListQuery {
  readonly limit: number;
  /** List only resources older than this id; null for the first page. */
  readonly before: string | null;
  /** Only resources in this status (invoices, payments). */
  readonly status: string | null;
  /** Only resources with these ids in these fields (payments: `invoiceId`, `subscriptionId`), lower case. */
  readonly ids: Readonly<Record<string, string>>;
  /** Only resources with these values in these fields (customers: `externalId`, `email`), as sent. */
  readonly texts: Readonly<Record<string, string>>;
}

export type QueryParameters = Readonly<Record<string, string | readonly string[] | undefined>>;

export const DEFAULT_LIST_LIMIT = 20;
export const MAX_LIST_LIMIT = 100;
const CURSOR_PREFIX = "k1.";
/** The longest value a text filter takes (`externalId`, `email` are at most 255 characters). */
const MAX_TEXT_FILTER_LENGTH = 255;

/**
 * Cursors are opaque to clients; inside they are the id of the last item of a page. Ids are UUIDv7,
 * time-ordered, so "older than the cursor" is stable while new resources arrive: nothing is repeated
 * or skipped when paging during inserts.
 */
export function encodeCursor(lastId: string): string {
  return Buffer.from(CURSOR_PREFIX + lastId, "utf8").toString("base64url");
}

function decodeCursor(cursor: string): string | null {
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(cursor)) return null;
  const text = Buffer.from(cursor, "base64url").toString("utf8");
  const id = text.startsWith(CURSOR_PREFIX) ? text.slice(CURSOR_PREFIX.length) : "";
  return isUuid(id) ? id.toLowerCase() : null;
}

/** Whether a text holds a C0 control character or DEL (a query filter never does). */
function hasControlCharacter(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

/**
 * Validates list query parameters, every problem at once; pointers name the parameter (`#/limit`).
 * `statuses`: the values `status` may take, or null when the list has no status filter; `idFilters`:
 * the parameters that filter by a related resource's id (a UUID). Unknown parameters are refused, as
 * unknown body fields are.
 */
export function parseListQuery(
  query: QueryParameters,
  statuses: readonly string[] | null,
  idFilters: readonly string[] = [],
  textFilters: readonly string[] = [],
): Result<ListQuery, KopekErrorOf<"validation_failed">> {
  const issues: FieldIssue[] = [];
  const allowed = ["limit", "cursor", ...(statuses === null ? [] : ["status"]), ...idFilters, ...textFilters];
  for (const name of Object.keys(query)) {
    if (!allowed.includes(name) && query[name] !== undefined) {
      issues.push({
        pointer: `#/${encodeURIComponent(name)}`,
        code: "unknown_field",
        detail: "is not a known parameter",
      });
    }
  }
  const single = (name: string): string | undefined => {
    const value = query[name];
    if (typeof value === "string" || value === undefined) return value;
    issues.push({ pointer: `#/${name}`, code: "invalid_type", detail: "must be given once" });
    return undefined;
  };

  let limit = DEFAULT_LIST_LIMIT;
  const rawLimit = single("limit");
  if (rawLimit !== undefined) {
    if (!/^[0-9]{1,4}$/.test(rawLimit)) {
      issues.push({ pointer: "#/limit", code: "invalid_type", detail: "must be an integer from 1 to 100" });
    } else {
      limit = Number(rawLimit);
      if (limit < 1) issues.push({ pointer: "#/limit", code: "too_small", detail: "must be at least 1" });
      if (limit > MAX_LIST_LIMIT)
        issues.push({ pointer: "#/limit", code: "too_large", detail: "must be at most 100" });
    }
  }
  const rawCursor = single("cursor");
  const before = rawCursor === undefined ? null : decodeCursor(rawCursor);
  if (rawCursor !== undefined && before === null) {
    issues.push({
      pointer: "#/cursor",
      code: "invalid_format",
      detail: "must be a nextCursor returned by this API",
    });
  }
  const status = statuses === null ? undefined : single("status");
  if (status !== undefined && statuses !== null && !statuses.includes(status)) {
    issues.push({
      pointer: "#/status",
      code: "invalid_value",
      detail: `must be one of ${statuses.join(", ")}`,
    });
  }
  const ids: Record<string, string> = {};
  for (const name of idFilters) {
    const id = single(name);
    if (id === undefined) continue;
    if (isUuid(id)) ids[name] = id.toLowerCase();
    else issues.push({ pointer: `#/${name}`, code: "invalid_format", detail: "must be a UUID" });
  }
  const texts: Record<string, string> = {};
  for (const name of textFilters) {
    const text = single(name);
    if (text === undefined) continue;
    if (text.length >= 1 && text.length <= MAX_TEXT_FILTER_LENGTH && !hasControlCharacter(text))
      texts[name] = text;
    else
      issues.push({
        pointer: `#/${name}`,
        code: "invalid_format",
        detail: `must be 1 to ${MAX_TEXT_FILTER_LENGTH} characters without control characters`,
      });
  }
  if (issues.length > 0) return err({ code: "validation_failed", errors: issues });
  return ok({ limit, before, status: status ?? null, ids, texts });
}
