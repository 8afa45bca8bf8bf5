import { randomUUID } from "node:crypto";
import { STATUS_CODES } from "node:http";
import type { Socket } from "node:net";
import { SECURITY_HEADERS } from "./security-headers.js";

/**
 * What a request Node could not even parse gets (Fastify's `clientErrorHandler`): no request, route or
 * hook exists yet, so the problem document is written straight to the socket, in the same shape as
 * every other one (docs/api.md §9). 408: headers or body too slow; 431: headers too large; 400: not
 * HTTP Node can read (a control character in a header, a broken request line).
 */
export function writeClientError(error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === "ECONNRESET" || socket.destroyed) return;
  const [status, code, detail] =
    error.code === "ERR_HTTP_REQUEST_TIMEOUT"
      ? [408, "request_timeout", "the request did not arrive in time"]
      : error.code === "HPE_HEADER_OVERFLOW"
        ? [431, "headers_too_large", "the request's headers are larger than the server accepts"]
        : [400, "bad_request", "the request is not well-formed HTTP"];
  const requestId = randomUUID();
  const body = JSON.stringify({
    type: `urn:kopek:problem:${code}`,
    title: STATUS_CODES[status],
    status,
    code,
    detail,
    requestId,
  });
  const headers = {
    "content-type": "application/problem+json",
    "content-length": String(Buffer.byteLength(body)),
    "x-request-id": requestId,
    "x-content-type-options": "nosniff",
    ...SECURITY_HEADERS,
    connection: "close",
  };
  const head = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
  if (socket.writable)
    socket.write(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${head.join("")}\r\n${body}`);
  socket.destroy(error);
}
