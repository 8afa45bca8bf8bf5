import type { KopekResponse } from "@kopek/core";
import type { FastifyReply } from "fastify";

/**
 * Sends core's answer as it is: its status, its headers and its exact body bytes. A Buffer, because
 * Fastify would append `; charset=utf-8` to a string sent as `application/problem+json`.
 */
export function sendKopekResponse(reply: FastifyReply, response: KopekResponse): FastifyReply {
  return reply.code(response.status).headers(response.headers).send(Buffer.from(response.body, "utf8"));
}
