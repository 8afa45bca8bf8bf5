import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";

/**
 * Headers every response carries, errors and 404s included, besides its `X-Request-Id`: never
 * sniffed, never cached by a shared cache or the browser, never sending the URL on as a referrer,
 * and, for anything that is not a page with its own policy, a Content-Security-Policy that lets it
 * load nothing and be framed by nothing.
 */
export const EVERY_RESPONSE_HEADERS: Readonly<Record<string, string>> = {
  "x-content-type-options": "nosniff",
  "cache-control": "no-store",
  "referrer-policy": "no-referrer",
  "content-security-policy": "default-src 'none'; frame-ancestors 'none'",
};

const NAMES = Object.keys(EVERY_RESPONSE_HEADERS);

async function responseHeaders(app: FastifyInstance) {
  // A callback hook, not an async one: a promise per hook costs.
  app.addHook("onSend", (request, reply, payload, done) => {
    reply.header("x-request-id", request.id);
    for (const name of NAMES)
      if (!reply.hasHeader(name)) reply.header(name, EVERY_RESPONSE_HEADERS[name] as string);
    done(null, payload);
  });
}

/**
 * The headers every response carries, for routes that answer by themselves (the pages, the API
 * document), where the route's own value (a page's Content-Security-Policy, a static asset's
 * Cache-Control) wins. Answers built by core go out through `sendKopekResponse`, which sets the same
 * headers without a hook.
 */
export const responseHeadersPlugin = fp(responseHeaders, { name: "kopek-response-headers" });
