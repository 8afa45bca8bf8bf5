import { DEFAULT_BODY_LIMIT_BYTES } from "@kopek/core";
import Fastify, { type FastifyBaseLogger, type FastifyInstance, LogController } from "fastify";
import type { Logger } from "pino";
import { writeClientError } from "./http/client-errors.js";
import { frameworkErrorsVia } from "./http/error-boundary.js";
import { requestIdFor } from "./http/request-id.js";
import { lazyRequestLoggers } from "./http/request-logger.js";
import {
  DEFAULT_SERVER_TIMEOUTS,
  fastifyTimeoutOptions,
  type ServerTimeouts,
} from "./http/server-timeouts.js";
import { type KopekRoutesOptions, kopekRoutes } from "./kopek-routes.js";
import { DEFAULT_RATE_LIMIT_PER_SECOND } from "./limits/rate-limit-defaults.js";
import { createLogger } from "./startup/logger.js";

export interface AppDeps extends KopekRoutesOptions {
  /** The JSON logger (see `createLogger`); silent when omitted. */
  readonly logger?: Logger;
  /** How long the server waits on slow clients; see DEFAULT_SERVER_TIMEOUTS. */
  readonly timeouts?: ServerTimeouts;
  /**
   * The proxies in front of the server (addresses or CIDRs, KOPEK_TRUST_PROXY): only when the peer is
   * one of them is the client taken from X-Forwarded-For, for the per-IP limits and the log. None by
   * default: the peer is the client, and X-Forwarded-For is ignored (a client could write anything).
   */
  readonly trustProxy?: readonly string[];
}

export { DEFAULT_BODY_LIMIT_BYTES, DEFAULT_RATE_LIMIT_PER_SECOND };
/** The Kopek HTTP app, ready to `inject` or `listen`; it does not listen itself. */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { kopek } = deps;
  const bodyLimitBytes = deps.bodyLimitBytes ?? DEFAULT_BODY_LIMIT_BYTES;
  const app = Fastify({
    // A pino Logger is a FastifyBaseLogger; the cast keeps FastifyInstance at its default logger type.
    loggerInstance: (deps.logger ?? createLogger({ level: "silent" })) as FastifyBaseLogger,
    // One line per request, written by request-log.ts, instead of Fastify's two.
    logController: new LogController({ disableRequestLogging: true, requestIdLogLabel: "requestId" }),
    childLoggerFactory: lazyRequestLoggers,
    genReqId: requestIdFor,
    requestIdHeader: false,
    bodyLimit: bodyLimitBytes,
    trustProxy: deps.trustProxy === undefined || deps.trustProxy.length === 0 ? false : [...deps.trustProxy],
    ...fastifyTimeoutOptions(deps.timeouts ?? DEFAULT_SERVER_TIMEOUTS),
    // While draining, a request that still arrives on an open connection is answered normally (with
    // Connection: close) instead of Fastify's bare 503, so it too is a Kopek response with X-Request-Id.
    return503OnClosing: false,
    frameworkErrors: frameworkErrorsVia(kopek),
    clientErrorHandler: writeClientError,
  });
  await app.register(kopekRoutes, deps);
  await app.ready();
  return app;
}
