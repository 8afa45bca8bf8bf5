import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";

/**
 * Every request body reaches its route as received, a string: core reads it (media type, JSON, depth
 * and size limits) after authenticating the request, so nothing about a body is judged here. Fastify
 * still stops reading at the server's body limit, and that refusal too is answered by core.
 */
async function rawBody(app: FastifyInstance) {
  app.removeAllContentTypeParsers();
  const asReceived = (_request: unknown, body: string | Buffer, done: (error: null, body: unknown) => void) =>
    done(null, body);
  // JSON by name as well: Fastify caches the parser it finds for a media type, but not the catch-all,
  // which it would look up afresh (parsing the Content-Type) on every request.
  app.addContentTypeParser("application/json", { parseAs: "string" }, asReceived);
  app.addContentTypeParser("*", { parseAs: "string" }, asReceived);
}

export const rawBodyPlugin = fp(rawBody, { name: "kopek-raw-body" });
