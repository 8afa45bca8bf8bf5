// 1–128 printable ASCII characters without spaces: safe to echo in a header and to write to a log.
const SANE_REQUEST_ID = /^[\x21-\x7e]{1,128}$/;

/** The caller's `X-Request-Id` when it sent one sane value (API.md 1); undefined means: make a new one. */
export function acceptedRequestId(value: string | readonly string[] | undefined): string | undefined {
  return typeof value === "string" && SANE_REQUEST_ID.test(value) ? value : undefined;
}
