import { containsCardNumber } from "../validation/card-guard.js";

/**
 * A request id Kopek takes from the caller: 1–128 letters, digits and `.` `_` `:` `-`, starting with a
 * letter or digit — what UUIDs, ULIDs and tracing ids are made of, and safe to echo in a header and to
 * write to a log. Never a card number or an API key, which would then land in every log line of the
 * request and in its responses.
 */
const SAFE_REQUEST_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;
const API_KEY_LIKE = /kopek_/i;

/** The caller's `X-Request-Id` when it sent one safe value (API.md 1); undefined means: make a new one. */
export function acceptedRequestId(value: string | readonly string[] | undefined): string | undefined {
  return typeof value === "string" &&
    SAFE_REQUEST_ID.test(value) &&
    !API_KEY_LIKE.test(value) &&
    !containsCardNumber(value)
    ? value
    : undefined;
}
