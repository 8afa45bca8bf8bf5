import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";

/** Headers every response carries, errors and 404s included. */
export function everyResponseHeaders(requestId: string): Record<string, string> {
  return { "x-request-id": requestId, "x-content-type-options": "nosniff" };
}

async function responseHeaders(app: FastifyInstance) {
  app.addHook("onSend", async (request, reply) => {
    reply.headers(everyResponseHeaders(request.id));
  });
}

export const responseHeadersPlugin = fp(responseHeaders, { name: "kopek-response-headers" });
