import { randomUUID } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { acceptedRequestId } from "@kopek/core";

/** The caller's `X-Request-Id` when it is sane, else a new UUID (API.md 1). */
export function requestIdFor(request: IncomingMessage): string {
  return acceptedRequestId(request.headers["x-request-id"]) ?? randomUUID();
}
