import { randomBytes } from "node:crypto";
import { DEFAULT_BODY_LIMIT_BYTES, type Kopek, type Storage } from "@kopek/core";
import type { SandboxCheckout } from "@kopek/provider-sandbox";
import type { FastifyInstance } from "fastify";
import { apiRoutes } from "./http/api-routes.js";
import { errorBoundaryPlugin } from "./http/error-boundary.js";
import { healthRoutes } from "./http/health-routes.js";
import { rawBodyPlugin } from "./http/raw-body.js";
import { requestLogPlugin } from "./http/request-log.js";
import { responseHeadersPlugin } from "./http/response-headers.js";
import { DEFAULT_RATE_LIMIT_PER_SECOND } from "./limits/rate-limit-defaults.js";
import { publicRateLimit } from "./limits/rate-limit-hooks.js";
import { createRateLimits, type RateLimits } from "./limits/rate-limits.js";
import type { KopekMetrics } from "./metrics/kopek-metrics.js";
import { metricsPlugin } from "./metrics/metrics-plugin.js";
import { openApiPlugin } from "./openapi/plugin.js";
import { methodRoutes } from "./pay/method-routes.js";
import { payRoutes } from "./pay/pay-routes.js";
import { providerEventRoutes } from "./pay/provider-event-routes.js";
import { sandboxCheckoutRoutes } from "./pay/sandbox-checkout-routes.js";

export interface KopekRoutesOptions {
  readonly kopek: Kopek;
  /** The storage behind `kopek`, asked by /readyz. */
  readonly storage: Storage;
  /** Largest body read; default 64 KiB (API.md 4). Give `createKopek` the same limit. */
  readonly bodyLimitBytes?: number;
  /** Requests per second per API key, in this process's memory; default 100, 0 turns limiting off. */
  readonly rateLimitPerSecond?: number;
  /**
   * All the limits (see limits/rate-limits.ts), shared by instances when built on a shared store; when
   * given, `rateLimitPerSecond` is ignored. Default: the per-key limit only, in memory.
   */
  readonly rateLimits?: RateLimits;
  /**
   * Where these routes are reached from outside, prefix included (`https://shop.example/kopek`): the
   * base of `paymentUrl` (give `createKopek` the same) and of the OpenAPI document's `servers`.
   */
  readonly publicUrl: string | (() => string);
  /** Signs the payment page's CSRF tokens (see pay/form-secret.ts); random per process when omitted. */
  readonly pageSecret?: Uint8Array;
  /** The sandbox provider's checkout page, served under /sandbox/checkout/ when given. */
  readonly sandboxCheckout?: SandboxCheckout;
  /** Counts every request in these series, and answers `GET /metrics` from them unless `metricsRoute` is false. */
  readonly metrics?: KopekMetrics;
  /**
   * `GET /metrics` here, with the bearer token it asks for (null: none); false: not here, because the
   * series are served on their own address (KOPEK_METRICS_LISTEN, metrics/metrics-server.ts). Default:
   * here, without a token.
   */
  readonly metricsRoute?: { readonly token: string | null } | false;
}

/**
 * Everything the reference server answers — the API under /v1, health, the payment page, provider
 * notifications, OpenAPI and /docs, the sandbox checkout, /metrics — as one encapsulated Fastify
 * plugin: its body parsing, error and 404 handling and hooks stay inside it, so it can be registered
 * in any Fastify app, under a `prefix` (see `kopekFastifyPlugin`). `buildApp` registers it at the root.
 */
export async function kopekRoutes(app: FastifyInstance, deps: KopekRoutesOptions) {
  const { kopek, storage } = deps;
  const bodyLimitBytes = deps.bodyLimitBytes ?? DEFAULT_BODY_LIMIT_BYTES;
  app.decorateRequest("kopekProjectId", null);

  await app.register(errorBoundaryPlugin, { kopek, bodyLimitBytes });
  const { metrics } = deps;
  await app.register(
    requestLogPlugin,
    metrics === undefined ? {} : { onCompleted: metrics.requestCompleted },
  );
  const metricsRoute = deps.metricsRoute ?? { token: null };
  if (metrics !== undefined && metricsRoute !== false)
    await app.register(metricsPlugin, { metrics, storage, kopek, token: metricsRoute.token });
  await app.register(rawBodyPlugin, { bodyLimitBytes });
  const limits =
    deps.rateLimits ??
    (await createRateLimits(
      { kind: "memory" },
      {
        perKeyPerSecond: deps.rateLimitPerSecond ?? DEFAULT_RATE_LIMIT_PER_SECOND,
        failedAuthPerIpPerMinute: 0,
        publicPerIpPerMinute: 0,
      },
    ));
  // Never rate limited: a load balancer probing from one address must not be locked out.
  await app.register(healthRoutes, { kopek, storage });
  await app.register(apiRoutes, {
    kopek,
    limits,
    ...(deps.metrics === undefined ? {} : { onAnswer: (answer) => deps.metrics?.apiAnswered(answer) }),
  });
  // Routes that answer by themselves get the headers every response carries from a hook, in their
  // own context; everything answered through core (the API, health, errors, 404) sets them directly.
  await app.register(async (pages) => {
    publicRateLimit(pages, kopek, limits.publicPerIp);
    await pages.register(responseHeadersPlugin);
    await pages.register(openApiPlugin, { publicUrl: deps.publicUrl });
    const secret = deps.pageSecret ?? randomBytes(32);
    await pages.register(payRoutes, { kopek, secret, publicUrl: deps.publicUrl });
    await pages.register(methodRoutes, { kopek, secret, publicUrl: deps.publicUrl });
    await pages.register(providerEventRoutes, { kopek });
    if (deps.sandboxCheckout !== undefined)
      await pages.register(sandboxCheckoutRoutes, {
        checkout: deps.sandboxCheckout,
        secret,
        publicUrl: deps.publicUrl,
      });
  });
}
