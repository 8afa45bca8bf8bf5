import {
  type Clock,
  createRenewalWorker,
  type DunningPolicy,
  type OnAmountMismatch,
  type PaymentProvider,
  type Project,
  type RenewalWorker,
  type Storage,
} from "@kopek/core";
import type { Logger } from "pino";
import type { KopekMetrics } from "../metrics/kopek-metrics.js";

export interface RenewalsOptions {
  readonly storage: Storage;
  readonly providerFor: (project: Project) => PaymentProvider;
  readonly clock: Clock;
  readonly dunning: DunningPolicy;
  readonly intervalMs: number;
  readonly logger: Logger;
  /** Counts every attempt by result. */
  readonly metrics?: KopekMetrics;
  /** Told about every charge answered for other money (API.md 10.1). */
  readonly onAmountMismatch?: OnAmountMismatch;
}

/**
 * Core's renewal worker, started on a timer, with every attempt in the log: which subscription,
 * which cycle, what the provider said. Never the method ref. `stop()` waits for the batch in flight.
 */
export function startRenewals(options: RenewalsOptions): RenewalWorker {
  const { logger } = options;
  const onError = (cause: unknown) => logger.error({ err: cause }, "renewal failed");
  const worker = createRenewalWorker({
    storage: options.storage,
    providerFor: options.providerFor,
    clock: options.clock,
    dunning: options.dunning,
    onAmountMismatch: options.onAmountMismatch,
    onRenewal: ({ subscription, cycle, result }) => {
      options.metrics?.renewal(result);
      logger.info(
        { subscriptionId: subscription.id, projectId: subscription.projectId, cycle, result },
        "renewal attempted",
      );
    },
    onError,
    // Each timed run that ends without an error is the worker's heartbeat (kopek_worker_last_success_timestamp_seconds).
    onTick: () => options.metrics?.workerSucceeded("renewals"),
  });
  worker.start(options.intervalMs);
  logger.info({ intervalMs: options.intervalMs }, "renewal worker started");
  return worker;
}
