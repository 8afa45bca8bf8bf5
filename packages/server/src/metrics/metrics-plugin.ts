import { createHash, timingSafeEqual } from "node:crypto";
import { type Kopek, parseBearerToken, type Storage } from "@kopek/core";
import type { FastifyInstance, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import { EVERY_RESPONSE_HEADERS } from "../http/response-headers.js";
import { sendKopekResponse } from "../http/send-kopek-response.js";
import type { KopekMetrics } from "./kopek-metrics.js";

/**
 * How often the gauges that need storage (pending payments, resources by status, the outbox) are
 * counted; scrapes read the last count.
 */
export const METRICS_REFRESH_MS = 15_000;

export interface MetricsPluginOptions {
  readonly metrics: KopekMetrics;
  /** Where the pending payments are counted, every `refreshMs`. */
  readonly storage: Storage;
  /** Renders the 401 of a scrape without the token. */
  readonly kopek: Kopek;
  /** The bearer token a scrape must send (KOPEK_METRICS_TOKEN); null: none asked. */
  readonly token: string | null;
  /** Default METRICS_REFRESH_MS. */
  readonly refreshMs?: number;
}

const sha256 = (text: string) => createHash("sha256").update(text).digest();

/** Whether the request carries the token, compared in constant time (as digests, so lengths match). */
function carriesToken(request: FastifyRequest, expected: Buffer): boolean {
  const { authorization } = request.headers;
  const token = parseBearerToken(Array.isArray(authorization) ? authorization.join(", ") : authorization);
  return token !== null && timingSafeEqual(sha256(token), expected);
}

/**
 * `GET /metrics` in Prometheus text format. Every answered request is counted by method, route pattern
 * (never the URL itself) and status through the request log's hook (`requestLogPlugin`'s
 * `onCompleted`, wired in kopek-routes.ts). A scrape never queries storage: the pending payments are
 * counted on an interval (unref'd, stopped when the app closes), so scraping often costs the database
 * nothing. For the operator's network only: behind a token (KOPEK_METRICS_TOKEN), on its own address
 * (KOPEK_METRICS_LISTEN), or off (KOPEK_METRICS=off).
 */
async function metricsRoutes(app: FastifyInstance, options: MetricsPluginOptions) {
  const { metrics, storage, kopek } = options;
  metrics.countPendingPaymentsWith(async (cutoffs) => {
    const counted = await storage.countPendingPayments(cutoffs);
    return counted.isOk() ? counted.value : null;
  });
  metrics.countResourcesWith(async () => {
    const counted = await storage.countResources();
    return counted.isOk() ? counted.value : null;
  });
  const refresh = () =>
    Promise.all([
      metrics.refreshPendingPayments().catch((cause: unknown) => {
        app.log.warn({ err: cause }, "metrics: the pending payments could not be counted");
      }),
      metrics.refreshResourceCounts().catch((cause: unknown) => {
        app.log.warn({ err: cause }, "metrics: the resources could not be counted");
      }),
    ]);
  let timer: NodeJS.Timeout | undefined;
  app.addHook("onReady", async () => {
    await refresh();
    timer = setInterval(refresh, options.refreshMs ?? METRICS_REFRESH_MS).unref();
  });
  app.addHook("onClose", async () => clearInterval(timer));

  const expected = options.token === null ? null : sha256(options.token);
  app.get("/metrics", async (request, reply) => {
    if (expected !== null && !carriesToken(request, expected))
      return sendKopekResponse(reply, kopek.errorResponse({ code: "unauthorized" }, request.id));
    const text = await metrics.registry.metrics();
    return reply
      .code(200)
      .headers({ ...EVERY_RESPONSE_HEADERS, "x-request-id": request.id })
      .header("content-type", metrics.registry.contentType)
      .send(text);
  });
}

export const metricsPlugin = fp(metricsRoutes, { name: "kopek-metrics" });
