import type { Kopek, KopekError } from "@kopek/core";
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import { KopekHttpError } from "./kopek-http-error.js";
import { everyResponseHeaders } from "./response-headers.js";
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

/**
 * Fastify's `frameworkErrors`: a URL it cannot even decode names no route. Answered before any hook
 * runs, so the headers every response carries are set here too.
 */
export function frameworkErrorsVia(kopek: Kopek) {
  return (_error: FastifyError, request: FastifyRequest, reply: FastifyReply) =>
    sendKopekResponse(
      reply.headers(everyResponseHeaders(request.id)),
      kopek.errorResponse({ code: "not_found" }, request.id),
    );
}

async function errorBoundary(app: FastifyInstance, { kopek, bodyLimitBytes }: ErrorBoundaryOptions) {
  app.setErrorHandler(async (error, request, reply) => {
    // A key Kopek remembered was not checked for this request (only a write's claim checks it): a
    // revoked key gets its 401 here too, not the body's or the rate limit's error.
    const auth = request.kopekAuth;
    const confirmed = auth === null ? null : await kopek.confirm(auth);
    const kopekError = confirmed?.isErr() ? confirmed.error : toKopekError(error, bodyLimitBytes);
    return sendKopekResponse(reply, kopek.errorResponse(kopekError, request.id));
  });
  app.setNotFoundHandler((request, reply) =>
    sendKopekResponse(reply, kopek.errorResponse({ code: "not_found" }, request.id)),
  );
}

export const errorBoundaryPlugin = fp(errorBoundary, { name: "kopek-error-boundary" });
