import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";

/**
 * One line per request, instead of Fastify's two: who (request and project id), what (method and
 * route pattern, never the URL's query or any header or body), and how it ended.
 */
async function requestLog(app: FastifyInstance) {
  app.addHook("onResponse", (request, reply, done) => {
    request.log.info(
      {
        projectId: request.kopekAuth?.project.id ?? null,
        method: request.method,
        route: request.routeOptions.url ?? null,
        status: reply.statusCode,
        durationMs: Math.round(reply.elapsedTime * 100) / 100,
      },
      "request completed",
    );
    done();
  });
}

export const requestLogPlugin = fp(requestLog, { name: "kopek-request-log" });
