import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { jsonLimitViolation } from "./json-limits.js";
import { KopekHttpError } from "./kopek-http-error.js";

type ParserDone = (error: Error | null, body?: unknown) => void;

/**
 * Plain `JSON.parse` rather than Fastify's prototype-poisoning guard: a `__proto__` key is just an
 * unknown field for core's strict validation to report, not a reason to call valid JSON invalid.
 */
function jsonParser(emptyIsNoBody: boolean) {
  return (_request: unknown, body: string | Buffer, done: ParserDone) => {
    if (emptyIsNoBody && body.length === 0) {
      done(null, undefined);
      return;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(body as string);
    } catch {
      done(new KopekHttpError({ code: "invalid_json" }), undefined);
      return;
    }
    const violation = jsonLimitViolation(parsed);
    if (violation === null) done(null, parsed);
    else done(new KopekHttpError({ code: "invalid_json", detail: violation }), undefined);
  };
}

/**
 * Only `application/json` bodies are accepted (any parameters, e.g. `; charset=utf-8`); every other
 * media type is left without a parser, so Fastify refuses it with 415.
 */
async function jsonBody(app: FastifyInstance) {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser("application/json", { parseAs: "string" }, jsonParser(false));
}

export const jsonBodyPlugin = fp(jsonBody, { name: "kopek-json-body" });

/**
 * For the routes of one context whose body is optional (cancel): an empty `application/json` body is
 * no body, as clients commonly send it, rather than invalid JSON. A non-empty one is parsed as usual.
 */
export function acceptEmptyJsonBodies(app: FastifyInstance): void {
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser("application/json", { parseAs: "string" }, jsonParser(true));
}
