import type { Storage } from "@kopek/core";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import type { KopekMetrics } from "./kopek-metrics.js";

export interface MetricsPluginOptions {
  readonly metrics: KopekMetrics;
  /** Where the pending payments are counted, at each scrape. */
  readonly storage: Storage;
}

/**
 * `GET /metrics` in Prometheus text format. Every answered request is counted by method, route pattern
 * (never the URL itself) and status through the request log's hook (`requestLogPlugin`'s
 * `onCompleted`, wired in kopek-routes.ts). No API key: like /healthz it is for the operator's
 * network; keep it off the public internet at the proxy, or turn it off (KOPEK_METRICS=off).
 */
async function metricsRoutes(app: FastifyInstance, { metrics, storage }: MetricsPluginOptions) {
  metrics.countPendingPaymentsWith(async (cutoffs) => {
    const counted = await storage.countPendingPayments(cutoffs);
    return counted.isOk() ? counted.value : null;
  });
  app.get("/metrics", async (_request, reply) => {
    const text = await metrics.registry.metrics();
    return reply
      .code(200)
      .header("content-type", metrics.registry.contentType)
      .header("cache-control", "no-store")
      .send(text);
  });
}

export const metricsPlugin = fp(metricsRoutes, { name: "kopek-metrics" });
