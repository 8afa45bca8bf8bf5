import { createKopek, providerNotificationUrl } from "@kopek/core";
import type { FastifyInstance } from "fastify";
import { err, ok, type Result } from "neverthrow";
import { buildApp } from "./app.js";
import { startKopekBackground } from "./background.js";
import { listenMetrics } from "./metrics/metrics-server.js";
import { formTokenSecret } from "./pay/form-secret.js";
import { reportAmountMismatches } from "./startup/amount-mismatches.js";
import type { Config } from "./startup/config.js";
import { demoBanner } from "./startup/demo-project.js";
import { startIdempotencyPurge } from "./startup/idempotency-purge.js";
import { reportKopekErrors } from "./startup/logger.js";
import { openRateLimits } from "./startup/rate-limit-store.js";
import { openServices } from "./startup/services.js";
import { cliHint, setUpProjects } from "./startup/startup-projects.js";
import { openStorage } from "./startup/storage.js";
import { webhookUrlRule } from "./webhooks/webhook-url-policy.js";

export interface RunningServer {
  readonly app: FastifyInstance;
  /** Where it listens, e.g. `http://127.0.0.1:3000`. */
  readonly url: string;
  /** Where /metrics is served when on its own address (KOPEK_METRICS_LISTEN); null otherwise. */
  readonly metricsUrl: string | null;
  /** Stops accepting and the renewal worker, lets in-flight work finish, stops timers, closes storage. */
  close(): Promise<void>;
}

/**
 * Starts the server: storage, projects, the app, listening, the purge timer and (KOPEK_WORKER=on) the
 * renewal worker. The only place that listens.
 */
export async function startServer(
  config: Config,
  print: (text: string) => void,
): Promise<Result<RunningServer, string>> {
  const services = openServices(config);
  if (services.isErr()) return err(services.error);
  const { logger, clock, providerFor, sandboxCheckout, metrics } = services.value;
  const opened = await openStorage(config, logger);
  if (opened.isErr()) return err(opened.error);
  const { storage } = opened.value;

  const projects = await setUpProjects(config, opened.value);
  if (projects.isErr()) {
    await opened.value.close();
    return err(projects.error);
  }
  const { demoKey, fromFile, notified } = projects.value;
  if (config.projectsFile !== null) logger.info({ projects: fromFile }, "projects file applied");

  // Unset, the public URL is where the server listens, with the port it was really given (PORT=0):
  // known once it listens, before it can take a request.
  let publicUrl = config.publicUrl;
  const kopek = createKopek({
    storage,
    providerFor,
    publicUrl: () => publicUrl ?? "",
    clock,
    ...(config.idempotencyLeaseMs === null ? {} : { leaseMs: config.idempotencyLeaseMs }),
    ...(config.idempotencyTtlMs === null ? {} : { idempotencyTtlMs: config.idempotencyTtlMs }),
    onError: reportKopekErrors(logger),
    onAmountMismatch: reportAmountMismatches(logger, metrics),
    webhookUrlProblem: webhookUrlRule(),
  });
  const rateLimits = await openRateLimits(config, opened.value, logger);
  const app = await buildApp({
    kopek,
    storage,
    logger,
    rateLimits: rateLimits.limits,
    trustProxy: config.trustProxy,
    publicUrl: () => publicUrl ?? "",
    pageSecret: formTokenSecret(config.formSecret, opened.value.encryptionKey),
    sandboxCheckout,
    ...(config.metrics ? { metrics } : {}),
    metricsRoute: config.metricsListen === null ? { token: config.metricsToken } : false,
  });
  try {
    await app.listen({ host: config.host, port: config.port });
  } catch (cause) {
    await app.close();
    await rateLimits.close();
    await opened.value.close();
    return err(
      `cannot listen on ${config.host}:${config.port} (${(cause as NodeJS.ErrnoException).code ?? String(cause)})`,
    );
  }
  let metricsApp: FastifyInstance | null = null;
  if (config.metrics && config.metricsListen !== null) {
    const { host, port } = config.metricsListen;
    try {
      metricsApp = await listenMetrics({
        metrics,
        storage,
        kopek,
        token: config.metricsToken,
        logger,
        host,
        port,
      });
    } catch (cause) {
      await app.close();
      await rateLimits.close();
      await opened.value.close();
      return err(
        `KOPEK_METRICS_LISTEN: cannot listen on ${host}:${port} (${(cause as NodeJS.ErrnoException).code ?? String(cause)})`,
      );
    }
  }
  const url = listeningUrl(app, config.host);
  const metricsUrl =
    metricsApp === null || config.metricsListen === null
      ? null
      : listeningUrl(metricsApp, config.metricsListen.host);
  publicUrl ??= url;
  logger.info(
    {
      url,
      storage: opened.value.kind,
      rateLimits: rateLimits.kind,
      ...(metricsUrl === null ? {} : { metricsUrl }),
    },
    "kopek listening",
  );
  // Once per start, so an operator reading the log finds what to paste into the provider's dashboard.
  for (const { projectId, providerKind } of notified) {
    const notificationUrl = providerNotificationUrl(publicUrl, projectId, providerKind);
    logger.info(
      { projectId, providerKind, notificationUrl },
      "provider notification URL, to give the provider",
    );
  }
  if (demoKey !== null) print(demoBanner(url, demoKey));
  else if (opened.value.kind === "postgres" && config.projectsFile === null) print(cliHint());

  // The pool's own counters, read at a scrape (no query); none on memory storage.
  metrics.observeDatabasePool(opened.value.pool);
  const purge = startIdempotencyPurge({ storage, clock, logger });
  const background = config.worker
    ? startKopekBackground({
        storage,
        providerFor,
        publicUrl: () => publicUrl ?? "",
        dunning: config.dunning,
        clock,
        intervalMs: config.workerIntervalMs,
        logger,
        metrics,
      })
    : null;

  return ok({
    app,
    url,
    metricsUrl,
    close: async () => {
      purge.stop();
      // Renewals and deliveries in flight finish and are saved before the storage goes away.
      await Promise.all([background?.stop(), app.close(), metricsApp?.close()]);
      await rateLimits.close();
      await opened.value.close();
    },
  });
}

// A wildcard address is where the server listens, not where a client can reach it.
function listeningUrl(app: FastifyInstance, host: string): string {
  const address = app.server.address();
  const port = typeof address === "object" && address !== null ? address.port : 0;
  const reachable =
    host === "0.0.0.0" || host === "::" ? "127.0.0.1" : host.includes(":") ? `[${host}]` : host;
  return `http://${reachable}:${port}`;
}
