import type { KopekResponse } from "@kopek/core";
import type { FastifyReply } from "fastify";

/**
 * Sends core's answer as it is: its status, its headers and its exact body bytes. A string when the
 * content type already names its charset (Node then writes headers and body in one chunk); a Buffer
 * otherwise, because Fastify would append `; charset=utf-8` to a string sent as
 * `application/problem+json`.
 */
export function sendKopekResponse(reply: FastifyReply, response: KopekResponse): FastifyReply {
  const type = response.headers["content-type"];
  const payload = type?.includes("charset=") === true ? response.body : Buffer.from(response.body, "utf8");
  return reply.code(response.status).headers(response.headers).send(payload);
}
