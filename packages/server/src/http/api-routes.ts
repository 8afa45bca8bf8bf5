import { type Kopek, type KopekError, type KopekRequest, type KopekResponse, ROUTES } from "@kopek/core";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { apiRateLimits } from "../limits/rate-limit-hooks.js";
import type { RateLimits } from "../limits/rate-limits.js";
import { connectionTaken, turnToAnswer } from "./end-of-turn.js";
import { unservedMethod } from "./method-not-allowed.js";
import { sendKopekResponse } from "./send-kopek-response.js";

declare module "fastify" {
  interface FastifyRequest {
    /** The project the request authenticated as, once core answered it (for the request log). */
    kopekProjectId: string | null;
  }
}

export interface ApiRoutesOptions {
  readonly kopek: Kopek;
  /** The per-key and failed-authentication limits (see limits/rate-limits.ts). */
  readonly limits: RateLimits;
  /** Told every answer core gives (metrics). */
  readonly onAnswer?: (answer: KopekResponse) => void;
}

/**
 * The request as core takes it: everything Kopek decides, it decides from this. `prefix` is where the
 * routes are mounted in the app (`""` in the reference server): core sees the URL below it.
 */
export function kopekRequestOf(request: FastifyRequest, prefix: string, refusal?: KopekError): KopekRequest {
  return {
    method: request.method,
    url: prefix === "" ? request.url : request.url.slice(prefix.length),
    headers: request.headers,
    body: typeof request.body === "string" ? request.body : undefined,
    requestId: request.id,
    refusal,
  };
}

/** Sends core's answer, remembering for the log which project it was for. */
export function sendAnswer(
  request: FastifyRequest,
  reply: FastifyReply,
  answer: Awaited<ReturnType<Kopek["handle"]>>,
) {
  request.kopekProjectId = answer.projectId ?? null;
  return sendKopekResponse(reply, answer);
}

/**
 * Everything under /v1: each request is handed to `kopek.handle` whole; authentication, body rules,
 * routing and every refusal are core's. The routes are core's `ROUTES`, named so the request log shows
 * the pattern (`/v1/invoices/:id`); any other /v1 path is core's to answer (404 after authentication),
 * and a method the API serves on no path is 405 (method-not-allowed.ts).
 * The rate limits are limits/rate-limit-hooks.ts's.
 */
export async function apiRoutes(api: FastifyInstance, { kopek, limits, onAnswer }: ApiRoutesOptions) {
  apiRateLimits(api, kopek, limits);

  const { prefix } = api;
  // Core's share of a turn shrinks while the server takes on new connections (end-of-turn.ts).
  if (!api.server.listeners("connection").includes(connectionTaken))
    api.server.on("connection", connectionTaken);
  const handle = async (request: FastifyRequest, reply: FastifyReply) => {
    // Core answers the requests of this turn together, once Node and Fastify have read them all, and
    // the answers are written together after it (end-of-turn.ts).
    await turnToAnswer();
    const answer = await kopek.handle(kopekRequestOf(request, prefix));
    onAnswer?.(answer);
    return sendAnswer(request, reply, answer);
  };

  for (const route of ROUTES)
    api.route({ method: route.method, url: route.path.replace("{id}", ":id"), handler: handle });
  // Methods the API serves on no path get their 405 from a hook of their own routes, so the served
  // ones pay for no hook, and before the body is read: Fastify refuses a QUERY without Content-Type.
  const refuseMethod = async (request: FastifyRequest, reply: FastifyReply) => {
    const refusal = unservedMethod(request.method, request.url.slice(prefix.length));
    return sendKopekResponse(reply, kopek.errorResponse(refusal ?? { code: "not_found" }, request.id));
  };
  const served = api.supportedMethods.filter((method) => unservedMethod(method, "/v1") === null);
  const unserved = api.supportedMethods.filter((method) => !served.includes(method));
  for (const url of ["/v1", "/v1/*"]) {
    api.route({ method: served, url, handler: handle });
    api.route({ method: unserved, url, onRequest: refuseMethod, handler: refuseMethod });
  }
}
