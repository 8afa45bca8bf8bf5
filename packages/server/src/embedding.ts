import type { IncomingMessage, ServerResponse } from "node:http";
import type { Kopek } from "@kopek/core";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { type AppDeps, buildApp } from "./app.js";
import { type KopekRoutesOptions, kopekRoutes } from "./kopek-routes.js";

declare module "fastify" {
  interface FastifyInstance {
    /** The Kopek instance whose API, pages and notifications `kopekFastifyPlugin` mounted. */
    kopek: Kopek;
  }
}

export interface KopekFastifyPluginOptions extends KopekRoutesOptions {
  /**
   * Where Kopek is mounted, e.g. `/kopek` (the API at `/kopek/v1/…`, the page at
   * `/kopek/pay/{projectId}/{invoiceId}`); the root by default. `publicUrl` (here and in `createKopek`)
   * must end with it.
   */
  readonly prefix?: string;
}

/**
 * Kopek in an existing Fastify app: the whole API, the payment page, provider notifications, health,
 * OpenAPI and (with `metrics`) /metrics, mounted under `prefix` in their own encapsulated context —
 * the host's parsers, hooks and error handlers do not touch them, theirs do not leak out — and
 * `app.kopek` decorated. For X-Request-Id exactly as API.md 1 says, create the host app with
 * `genReqId: requestIdFor` and `requestIdHeader: false`; otherwise the host's request ids are used.
 * Start the background jobs with `startKopekBackground`.
 */
export const kopekFastifyPlugin = fp(
  async (app: FastifyInstance, options: KopekFastifyPluginOptions) => {
    const { prefix, ...routes } = options;
    app.decorate("kopek", options.kopek);
    await app.register(kopekRoutes, { ...routes, prefix: prefix ?? "" });
  },
  { name: "kopek", fastify: "5.x" },
);

export interface KopekRequestHandler {
  /**
   * A Node `(req, res)` handler: pass it to `http.createServer`, or mount it in Express with
   * `app.use("/kopek", handler.handle)` before any body parser (Kopek reads the body itself).
   */
  readonly handle: (request: IncomingMessage, response: ServerResponse) => void;
  /** Lets requests in flight finish, then releases the handler. */
  close(): Promise<void>;
}

/**
 * Everything `kopekFastifyPlugin` serves, as a plain Node request handler for `node:http`, Express
 * and other frameworks built on it: the reference server's app (`buildApp`), routed without listening.
 */
export async function createKopekHandler(deps: AppDeps): Promise<KopekRequestHandler> {
  const app = await buildApp(deps);
  return {
    handle: (request, response) => app.routing(request, response),
    close: () => app.close(),
  };
}
