import {
  type Clock,
  DEFAULT_DUNNING_POLICY,
  type DunningPolicy,
  type PaymentProvider,
  type Project,
  type Storage,
  systemClock,
  type WebhookTransport,
} from "@kopek/core";
import type { Logger } from "pino";
import type { KopekMetrics } from "./metrics/kopek-metrics.js";
import { reportAmountMismatches } from "./startup/amount-mismatches.js";
import { createLogger } from "./startup/logger.js";
import { startRenewals } from "./startup/renewals.js";
import { startBackgroundJobs } from "./webhooks/start-background.js";

export interface KopekBackgroundOptions {
  readonly storage: Storage;
  /** The same `providerFor` given to `createKopek`. */
  readonly providerFor: (project: Project) => PaymentProvider;
  /**
   * The hosted pages' base URL (as given to `createKopek`): lets reconciliation resume an invoice
   * attempt whose provider answer was lost. Without it such an attempt waits for the payer.
   */
  readonly publicUrl?: () => string;
  readonly clock?: Clock;
  /** How often each job looks for work; default 5 s. */
  readonly intervalMs?: number;
  /** When declined renewals are retried; default: API.md's 1, 3 and 5 days. */
  readonly dunning?: DunningPolicy;
  /**
   * Every renewal and webhook attempt is logged here (never a secret), and every provider word refused
   * for its money at error level (API.md 10.1); silent when omitted.
   */
  readonly logger?: Logger;
  readonly metrics?: KopekMetrics;
  /** How webhooks are sent; `fetch` with a 10 s timeout by default. */
  readonly transport?: WebhookTransport;
}

export interface KopekBackground {
  /** Stops every job and waits for the work in flight (a renewal, a delivery) to be saved. */
  stop(): Promise<void>;
}

export const DEFAULT_INTERVAL_MS = 5000;

/**
 * Everything Kopek does on its own, started in this process with one call: renewals (with dunning),
 * webhook delivery, invoice expiry and payment reconciliation. Any number of processes may run it on
 * one PostgreSQL database (every claim is a lease); on memory storage, run it in the process that
 * serves the API. `kopek serve` (KOPEK_WORKER=on) and `kopek worker` both start it.
 */
export function startKopekBackground(options: KopekBackgroundOptions): KopekBackground {
  const logger = options.logger ?? createLogger({ level: "silent" });
  const clock = options.clock ?? systemClock;
  const intervalMs = options.intervalMs ?? DEFAULT_INTERVAL_MS;
  const dunning = options.dunning ?? DEFAULT_DUNNING_POLICY;
  const { storage, providerFor, metrics } = options;
  // One reporter for both jobs: a refused word is logged and counted once, whichever job heard it.
  const onAmountMismatch = reportAmountMismatches(logger, metrics);
  const renewals = startRenewals({
    storage,
    providerFor,
    clock,
    dunning,
    intervalMs,
    logger,
    onAmountMismatch,
    ...(metrics === undefined ? {} : { metrics }),
  });
  const jobs = startBackgroundJobs({
    storage,
    providerFor,
    clock,
    dunning,
    intervalMs,
    logger,
    onAmountMismatch,
    ...(options.publicUrl === undefined ? {} : { publicUrl: options.publicUrl }),
    ...(metrics === undefined ? {} : { metrics }),
    ...(options.transport === undefined ? {} : { transport: options.transport }),
  });
  return {
    stop: async () => {
      await Promise.all([renewals.stop(), jobs.stop()]);
    },
  };
}
