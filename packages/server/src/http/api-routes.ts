import rateLimit from "@fastify/rate-limit";
import type { AuthContext, Kopek, KopekRequest } from "@kopek/core";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { acceptEmptyJsonBodies } from "./json-body.js";
import { KopekHttpError } from "./kopek-http-error.js";
import { sendKopekResponse } from "./send-kopek-response.js";

declare module "fastify" {
  interface FastifyRequest {
    /** Who is calling, set by the /v1 authentication hook; null outside /v1 or before it ran. */
    kopekAuth: AuthContext | null;
  }
}

export interface ApiRoutesOptions {
  readonly kopek: Kopek;
  /** Requests per second per API key; 0 turns limiting off. */
  readonly rateLimitPerSecond: number;
}

/**
 * Everything under /v1. Encapsulated (no fastify-plugin) so its hooks stay here: authentication on
 * `onRequest`, before the body is even read, so a bad key gets 401 whatever else is wrong; then the
 * per-key rate limit on `preParsing`, once the key is known. The routes only hand the request to core.
 */
export async function apiRoutes(api: FastifyInstance, { kopek, rateLimitPerSecond }: ApiRoutesOptions) {
  api.addHook("onRequest", async (request) => {
    const auth = await kopek.authenticate(request.headers.authorization);
    if (auth.isErr()) throw new KopekHttpError(auth.error);
    request.kopekAuth = auth.value;
  });

  if (rateLimitPerSecond > 0) {
    await api.register(rateLimit, {
      hook: "preParsing",
      max: rateLimitPerSecond,
      timeWindow: 1000,
      keyGenerator: (request) => request.kopekAuth?.keyId ?? request.ip,
      errorResponseBuilder: (_request, context) =>
        new KopekHttpError({
          code: "rate_limited",
          retryAfterSeconds: Math.max(1, Math.ceil(context.ttl / 1000)),
        }),
    });
  }

  const handle = async (request: FastifyRequest, reply: FastifyReply) => {
    const response = await kopek.handle({
      method: request.method,
      path: request.url.split("?", 1)[0] ?? request.url,
      // Parsed by parseQueryString (app.ts): strings, arrays for repeated parameters.
      query: request.query as KopekRequest["query"],
      idempotencyKey: headerValue(request.headers["idempotency-key"]),
      body: request.body,
      requestId: request.id,
      auth: request.kopekAuth ?? undefined,
    });
    return sendKopekResponse(reply, response);
  };

  // Named routes, so the request log shows the pattern (`/v1/invoices/:id`); core does the routing.
  for (const collection of ["/v1/subscriptions", "/v1/invoices"]) {
    api.post(collection, handle);
    api.get(collection, handle);
    api.get(`${collection}/:id`, handle);
  }
  await api.register(async (stateChanges) => {
    acceptEmptyJsonBodies(stateChanges);
    stateChanges.post("/v1/subscriptions/:id/cancel", handle);
    stateChanges.post("/v1/invoices/:id/cancel", handle);
  });
  await api.register(async (other) => {
    // Other /v1 routes are core's to answer (404 for a route it does not know), so a body in another
    // media type is passed over unread rather than refused with 415 before core can say 404.
    other.addContentTypeParser("*", (_request, _payload, done) => done(null, undefined));
    other.all("/v1", handle);
    other.all("/v1/*", handle);
  });
}

// Node joins repeated unknown headers itself; an array only comes from an injected request.
function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(", ") : value;
}
