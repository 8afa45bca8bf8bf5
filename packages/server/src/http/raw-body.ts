import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";

/**
 * Every request body reaches its route as received, a string: core reads it (media type, JSON, depth
 * and size limits) after authenticating the request, so nothing about a body is judged here. Fastify
 * still stops reading at the server's body limit, and that refusal too is answered by core.
 */
async function rawBody(app: FastifyInstance) {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser("*", { parseAs: "string" }, (_request, body, done) => done(null, body));
}

export const rawBodyPlugin = fp(rawBody, { name: "kopek-raw-body" });
