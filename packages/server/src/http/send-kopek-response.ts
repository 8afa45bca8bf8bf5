import type { KopekResponse } from "@kopek/core";
import type { FastifyReply } from "fastify";
import { EVERY_RESPONSE_HEADERS } from "./response-headers.js";

/**
 * Sends core's answer as it is: its status, its headers and its exact body bytes, with the headers
 * every response carries (`X-Request-Id`, the security headers) set here rather than by a hook, which
 * would cost every API request a hook run. A string body when the content type already names its
 * charset (Node then writes headers and body in one chunk); a Buffer otherwise, because Fastify would
 * append `; charset=utf-8` to a string sent as `application/problem+json`.
 */
export function sendKopekResponse(reply: FastifyReply, response: KopekResponse): FastifyReply {
  const type = response.headers["content-type"];
  const payload = type?.includes("charset=") === true ? response.body : Buffer.from(response.body, "utf8");
  return reply
    .code(response.status)
    .headers(EVERY_RESPONSE_HEADERS)
    .header("x-request-id", reply.request.id)
    .headers(response.headers)
    .send(payload);
}
