import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { addMissingSecurityHeaders, SECURITY_HEADERS } from "./security-headers.js";

/** Headers every response carries, errors and 404s included. */
export function everyResponseHeaders(requestId: string): Record<string, string> {
  return { "x-request-id": requestId, "x-content-type-options": "nosniff", ...SECURITY_HEADERS };
}

async function responseHeaders(app: FastifyInstance) {
  // A callback hook, not an async one: it runs on every response, and a promise per hook costs.
  app.addHook("onSend", (request, reply, payload, done) => {
    reply.header("x-request-id", request.id).header("x-content-type-options", "nosniff");
    addMissingSecurityHeaders(reply);
    done(null, payload);
  });
}

export const responseHeadersPlugin = fp(responseHeaders, { name: "kopek-response-headers" });
