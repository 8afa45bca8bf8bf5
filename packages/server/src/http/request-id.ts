import { randomUUID } from "node:crypto";
import type { IncomingMessage } from "node:http";

// 1–128 printable ASCII characters without spaces: safe to echo in a header and to write to a log.
const SANE_REQUEST_ID = /^[\x21-\x7e]{1,128}$/;

/** The caller's `X-Request-Id` when it is sane, else a new UUID (API.md 1). */
export function requestIdFor(request: IncomingMessage): string {
  const sent = request.headers["x-request-id"];
  return typeof sent === "string" && SANE_REQUEST_ID.test(sent) ? sent : randomUUID();
}
