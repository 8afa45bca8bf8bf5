import { randomUUID } from "node:crypto";
import { STATUS_CODES } from "node:http";
import type { Socket } from "node:net";
import { type KopekError, toProblem } from "@kopek/core";
import { EVERY_RESPONSE_HEADERS } from "./response-headers.js";

/**
 * What a request Node could not even parse gets (Fastify's `clientErrorHandler`): no request, route or
 * hook exists yet, so the problem document — rendered by core's `toProblem` like every other one —
 * is written straight to the socket. 408: headers or body too slow; 431: headers too large; 400: not
 * HTTP Node can read (a control character in a header, a broken request line).
 */
export function writeClientError(error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === "ECONNRESET" || socket.destroyed) return;
  const kopekError: KopekError = {
    code:
      error.code === "ERR_HTTP_REQUEST_TIMEOUT"
        ? "request_timeout"
        : error.code === "HPE_HEADER_OVERFLOW"
          ? "headers_too_large"
          : "bad_request",
  };
  const requestId = randomUUID();
  const problem = toProblem(kopekError, requestId);
  const { status } = problem;
  const body = JSON.stringify(problem.body);
  const headers = {
    ...problem.headers,
    "content-length": String(Buffer.byteLength(body)),
    "x-request-id": requestId,
    ...EVERY_RESPONSE_HEADERS,
    connection: "close",
  };
  const head = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
  if (socket.writable)
    socket.write(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${head.join("")}\r\n${body}`);
  socket.destroy(error);
}
