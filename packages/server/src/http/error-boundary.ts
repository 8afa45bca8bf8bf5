import type { Kopek, KopekError } from "@kopek/core";
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import { kopekRequestOf, sendAnswer } from "./api-routes.js";
import { KopekHttpError } from "./kopek-http-error.js";
import { unservedMethod } from "./method-not-allowed.js";
import { sendKopekResponse } from "./send-kopek-response.js";

export interface ErrorBoundaryOptions {
  readonly kopek: Kopek;
  readonly bodyLimitBytes: number;
}

/**
 * The one place an error becomes an HTTP answer: Kopek's own errors as they are, Fastify's body errors
 * as their problem codes, anything else as a bare 500 whose cause goes only to the log (through core's
 * `onError`).
 */
export function toKopekError(error: unknown, bodyLimitBytes: number): KopekError {
  if (error instanceof KopekHttpError) return error.kopekError;
  switch ((error as Partial<FastifyError> | null)?.code) {
    case "FST_ERR_CTP_BODY_TOO_LARGE":
      return { code: "payload_too_large", limitBytes: bodyLimitBytes };
    case "FST_ERR_CTP_INVALID_MEDIA_TYPE":
      return { code: "unsupported_media_type" };
    // The body on the wire is not the one Content-Length announced: what arrived is not the JSON sent.
    case "FST_ERR_CTP_INVALID_CONTENT_LENGTH":
    case "FST_ERR_CTP_EMPTY_JSON_BODY":
    case "FST_ERR_CTP_INVALID_JSON_BODY":
      return { code: "invalid_json" };
    default:
      return { code: "internal_error", cause: error };
  }
}

/** Fastify's `frameworkErrors`: a URL it cannot even decode names no route. */
export function frameworkErrorsVia(kopek: Kopek) {
  return (_error: FastifyError, request: FastifyRequest, reply: FastifyReply) =>
    sendKopekResponse(reply, kopek.errorResponse({ code: "not_found" }, request.id));
}

async function errorBoundary(app: FastifyInstance, { kopek, bodyLimitBytes }: ErrorBoundaryOptions) {
  const { prefix } = app;
  app.setErrorHandler(async (error, request, reply) => {
    const kopekError = toKopekError(error, bodyLimitBytes);
    // An API request refused before core saw it (too large, rate limited, cut short) is still core's
    // to answer, so it authenticates it first: a bad or revoked key gets 401, not the body's error.
    if (kopekError.code !== "internal_error" && isApiPath(request.url.slice(prefix.length)))
      return sendAnswer(request, reply, await kopek.handle(kopekRequestOf(request, prefix, kopekError)));
    return sendKopekResponse(reply, kopek.errorResponse(kopekError, request.id));
  });
  // Under /v1 only a method Fastify does not route (PROPFIND, MKCOL…) gets here: 405 like QUERY.
  app.setNotFoundHandler((request, reply) => {
    const url = request.url.slice(prefix.length);
    const refusal = isApiPath(url) ? unservedMethod(request.method, url) : null;
    return sendKopekResponse(reply, kopek.errorResponse(refusal ?? { code: "not_found" }, request.id));
  });
}

const isApiPath = (url: string) => url === "/v1" || url.startsWith("/v1/") || url.startsWith("/v1?");

export const errorBoundaryPlugin = fp(errorBoundary, { name: "kopek-error-boundary" });
