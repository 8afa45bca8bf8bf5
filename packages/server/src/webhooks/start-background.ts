import {
  type Clock,
  createInvoiceSweeper,
  createPaymentReconciler,
  createWebhookDispatcher,
  type DunningPolicy,
  type OnAmountMismatch,
  type PaymentProvider,
  type Project,
  type Storage,
  type WebhookTransport,
} from "@kopek/core";
import type { Logger } from "pino";
import type { KopekMetrics } from "../metrics/kopek-metrics.js";
import { createGuardedTransport } from "./guarded-transport.js";
import { webhookUrlPolicy } from "./webhook-url-policy.js";

export interface BackgroundOptions {
  readonly storage: Storage;
  /** For the payment reconciler: the provider of a payment's project. */
  readonly providerFor: (project: Project) => PaymentProvider;
  /** For the payment reconciler: the hosted pages' base URL, to resume an attempt it never heard of. */
  readonly publicUrl?: () => string;
  /** For the payment reconciler: how a renewal that settles declined is retried. */
  readonly dunning?: DunningPolicy;
  /** For the payment reconciler: told about every provider word refused for its money (API.md 10.1). */
  readonly onAmountMismatch?: OnAmountMismatch;
  readonly clock: Clock;
  readonly intervalMs: number;
  readonly logger: Logger;
  /** Counts every delivery attempt by outcome, with its event's age. */
  readonly metrics?: KopekMetrics;
  readonly transport?: WebhookTransport;
  /** Test aid: a shorter retry schedule. */
  readonly retryScheduleMs?: readonly number[];
  /** Test aid: a shorter request timeout (default 10 s). */
  readonly timeoutMs?: number;
}

/**
 * Beside the renewal worker, on the same interval: the webhook dispatcher, the invoice sweeper and the
 * payment reconciler (pending payments asked about a minute on, with back-off). Every webhook attempt
 * is logged (event, endpoint url, status), never a secret; a disabled endpoint is a warning.
 */
export function startBackgroundJobs(options: BackgroundOptions): { stop(): Promise<void> } {
  const { logger, storage, clock } = options;
  const dispatcher = createWebhookDispatcher({
    storage,
    clock,
    transport: options.transport ?? createGuardedTransport(webhookUrlPolicy()),
    ...(options.retryScheduleMs === undefined ? {} : { retryScheduleMs: options.retryScheduleMs }),
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    onAttempt: (a) => {
      options.metrics?.webhookAttempt(a.outcome, (a.at.getTime() - a.eventCreatedAt.getTime()) / 1000);
      logger.info(
        {
          eventId: a.eventId,
          eventType: a.eventType,
          endpointId: a.endpointId,
          url: a.url,
          outcome: a.outcome,
          status: a.status,
          error: a.error,
        },
        "webhook attempted",
      );
    },
    onEndpointDisabled: (e) =>
      logger.warn(
        { endpointId: e.id, projectId: e.projectId, url: e.url },
        "webhook endpoint disabled: it kept failing",
      ),
    onError: (cause) => logger.error({ err: cause }, "webhook dispatch failed"),
  });
  const sweeper = createInvoiceSweeper({
    storage,
    clock,
    onError: (cause) => logger.error({ err: cause }, "invoice expiry sweep failed"),
  });
  const onReconcileError = (cause: unknown) => logger.error({ err: cause }, "payment reconciliation failed");
  const reconciler = createPaymentReconciler({
    storage,
    clock,
    providerFor: options.providerFor,
    ...(options.publicUrl === undefined ? {} : { publicUrl: options.publicUrl }),
    ...(options.dunning === undefined ? {} : { dunning: options.dunning }),
    onAmountMismatch: options.onAmountMismatch,
    onError: onReconcileError,
    // Each timed run that ends without an error is the reconciler's heartbeat.
    onTick: () => options.metrics?.workerSucceeded("reconciler"),
  });
  const jobs = [dispatcher, sweeper, reconciler];
  for (const job of jobs) job.start(options.intervalMs);
  logger.info(
    { intervalMs: options.intervalMs },
    "webhook dispatcher, invoice sweeper and payment reconciler started",
  );
  return { stop: async () => void (await Promise.all(jobs.map((job) => job.stop()))) };
}
