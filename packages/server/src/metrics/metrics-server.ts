import type { Kopek, Storage } from "@kopek/core";
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from "fastify";
import type { Logger } from "pino";
import { requestIdFor } from "../http/request-id.js";
import type { KopekMetrics } from "./kopek-metrics.js";
import { metricsPlugin } from "./metrics-plugin.js";

export interface MetricsServerOptions {
  readonly metrics: KopekMetrics;
  readonly storage: Storage;
  readonly kopek: Kopek;
  readonly token: string | null;
  readonly logger: Logger;
  readonly host: string;
  readonly port: number;
}

/**
 * `GET /metrics` alone on its own address (KOPEK_METRICS_LISTEN), e.g. an internal interface the
 * public proxy never reaches; the API's port then has no /metrics. Any other path is a bare 404.
 */
export async function listenMetrics(options: MetricsServerOptions): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: options.logger as FastifyBaseLogger,
    disableRequestLogging: true,
    genReqId: requestIdFor,
    requestIdHeader: false,
  });
  await app.register(metricsPlugin, {
    metrics: options.metrics,
    storage: options.storage,
    kopek: options.kopek,
    token: options.token,
  });
  try {
    await app.listen({ host: options.host, port: options.port });
  } catch (cause) {
    await app.close();
    throw cause;
  }
  return app;
}
