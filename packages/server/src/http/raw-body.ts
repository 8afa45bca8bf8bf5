import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";

/**
 * Every request body reaches its route as received, a string: core reads it (media type, JSON, depth
 * and size limits) after authenticating the request, so nothing about a body is judged here. Fastify
 * still stops reading at the server's body limit, and that refusal too is answered by core.
 */
async function rawBody(app: FastifyInstance, { bodyLimitBytes }: { readonly bodyLimitBytes: number }) {
  app.removeAllContentTypeParsers();
  const asReceived = (_request: unknown, body: string | Buffer, done: (error: null, body: unknown) => void) =>
    done(null, body);
  // JSON by name as well: Fastify caches the parser it finds for a media type, but not the catch-all,
  // which it would look up afresh (parsing the Content-Type) on every request.
  // The limit is set here too, not only on the server: mounted in another app, these routes keep theirs.
  const options = { parseAs: "string", bodyLimit: bodyLimitBytes } as const;
  app.addContentTypeParser("application/json", options, asReceived);
  app.addContentTypeParser("*", options, asReceived);
}

export const rawBodyPlugin = fp(rawBody, { name: "kopek-raw-body" });
