import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { addMissingSecurityHeaders, SECURITY_HEADERS } from "./security-headers.js";

/** Headers every response carries, errors and 404s included, besides its `X-Request-Id`. */
export const EVERY_RESPONSE_HEADERS: Readonly<Record<string, string>> = {
  "x-content-type-options": "nosniff",
  ...SECURITY_HEADERS,
};

async function responseHeaders(app: FastifyInstance) {
  // A callback hook, not an async one: a promise per hook costs.
  app.addHook("onSend", (request, reply, payload, done) => {
    reply.header("x-request-id", request.id).header("x-content-type-options", "nosniff");
    addMissingSecurityHeaders(reply);
    done(null, payload);
  });
}

/**
 * The headers every response carries, for routes that answer by themselves (the pages, the API
 * document), where the route's own value of a security header wins. Answers built by core go out
 * through `sendKopekResponse`, which sets the same headers without a hook.
 */
export const responseHeadersPlugin = fp(responseHeaders, { name: "kopek-response-headers" });
