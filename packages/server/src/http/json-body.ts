import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { KopekHttpError } from "./kopek-http-error.js";

/**
 * Only `application/json` bodies are accepted (any parameters, e.g. `; charset=utf-8`); every other
 * media type is left without a parser, so Fastify refuses it with 415. Plain `JSON.parse` rather than
 * Fastify's prototype-poisoning guard: a `__proto__` key is just an unknown field for core's strict
 * validation to report, not a reason to call valid JSON invalid.
 */
async function jsonBody(app: FastifyInstance) {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser("application/json", { parseAs: "string" }, (_request, body, done) => {
    try {
      done(null, JSON.parse(body as string));
    } catch {
      done(new KopekHttpError({ code: "invalid_json" }), undefined);
    }
  });
}

export const jsonBodyPlugin = fp(jsonBody, { name: "kopek-json-body" });
