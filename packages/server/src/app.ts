import { randomBytes } from "node:crypto";
import { DEFAULT_BODY_LIMIT_BYTES, type Kopek, type Storage } from "@kopek/core";
import type { SandboxCheckout } from "@kopek/provider-sandbox";
import Fastify, { type FastifyBaseLogger, type FastifyInstance, LogController } from "fastify";
import type { Logger } from "pino";
import { apiRoutes } from "./http/api-routes.js";
import { writeClientError } from "./http/client-errors.js";
import { errorBoundaryPlugin, frameworkErrorsVia } from "./http/error-boundary.js";
import { healthRoutes } from "./http/health-routes.js";
import { rawBodyPlugin } from "./http/raw-body.js";
import { requestIdFor } from "./http/request-id.js";
import { requestLogPlugin } from "./http/request-log.js";
import { lazyRequestLoggers } from "./http/request-logger.js";
import { responseHeadersPlugin } from "./http/response-headers.js";
import {
  DEFAULT_SERVER_TIMEOUTS,
  fastifyTimeoutOptions,
  type ServerTimeouts,
} from "./http/server-timeouts.js";
import type { KopekMetrics } from "./metrics/kopek-metrics.js";
import { metricsPlugin } from "./metrics/metrics-plugin.js";
import { openApiPlugin } from "./openapi/plugin.js";
import { payRoutes } from "./pay/pay-routes.js";
import { providerEventRoutes } from "./pay/provider-event-routes.js";
import { sandboxCheckoutRoutes } from "./pay/sandbox-checkout-routes.js";
import { createLogger } from "./startup/logger.js";

export interface AppDeps {
  readonly kopek: Kopek;
  /** The storage behind `kopek`, asked by /readyz. */
  readonly storage: Storage;
  /** The JSON logger (see `createLogger`); silent when omitted. */
  readonly logger?: Logger;
  /** Largest body the server reads; default 64 KiB (API.md 4). Give `createKopek` the same limit. */
  readonly bodyLimitBytes?: number;
  /** Requests per second per API key; default 100, 0 turns limiting off. */
  readonly rateLimitPerSecond?: number;
  /** Where the server is reached from outside (the OpenAPI document's `servers`); see OpenApiPluginOptions. */
  readonly publicUrl: string | (() => string);
  /** Signs the payment page's CSRF tokens (see pay/form-secret.ts); random per process when omitted. */
  readonly pageSecret?: Uint8Array;
  /** How long the server waits on slow clients; see DEFAULT_SERVER_TIMEOUTS. */
  readonly timeouts?: ServerTimeouts;
  /** The sandbox provider's checkout page, served under /sandbox/checkout/ when given. */
  readonly sandboxCheckout?: SandboxCheckout;
  /** Answers `GET /metrics` and counts every request in it when given. */
  readonly metrics?: KopekMetrics;
}

export { DEFAULT_BODY_LIMIT_BYTES };
export const DEFAULT_RATE_LIMIT_PER_SECOND = 100;

/** The Kopek HTTP app, ready to `inject` or `listen`; it does not listen itself. */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { kopek, storage } = deps;
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
    ...fastifyTimeoutOptions(deps.timeouts ?? DEFAULT_SERVER_TIMEOUTS),
    // While draining, a request that still arrives on an open connection is answered normally (with
    // Connection: close) instead of Fastify's bare 503, so it too is a Kopek response with X-Request-Id.
    return503OnClosing: false,
    frameworkErrors: frameworkErrorsVia(kopek),
    clientErrorHandler: writeClientError,
  });
  app.decorateRequest("kopekProjectId", null);

  await app.register(errorBoundaryPlugin, { kopek, bodyLimitBytes });
  await app.register(requestLogPlugin);
  if (deps.metrics !== undefined) await app.register(metricsPlugin, { metrics: deps.metrics });
  await app.register(rawBodyPlugin);
  await app.register(healthRoutes, { kopek, storage });
  await app.register(apiRoutes, {
    kopek,
    rateLimitPerSecond: deps.rateLimitPerSecond ?? DEFAULT_RATE_LIMIT_PER_SECOND,
    ...(deps.metrics === undefined ? {} : { onAnswer: (answer) => deps.metrics?.apiAnswered(answer) }),
  });
  // Routes that answer by themselves get the headers every response carries from a hook, in their
  // own context; everything answered through core (the API, health, errors, 404) sets them directly.
  await app.register(async (pages) => {
    await pages.register(responseHeadersPlugin);
    await pages.register(openApiPlugin, { publicUrl: deps.publicUrl });
    const secret = deps.pageSecret ?? randomBytes(32);
    await pages.register(payRoutes, { kopek, secret, publicUrl: deps.publicUrl });
    await pages.register(providerEventRoutes, { kopek });
    if (deps.sandboxCheckout !== undefined)
      await pages.register(sandboxCheckoutRoutes, {
        checkout: deps.sandboxCheckout,
        secret,
        publicUrl: deps.publicUrl,
      });
  });

  await app.ready();
  return app;
}
