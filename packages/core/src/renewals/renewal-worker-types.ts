import type { Subscription } from "../domain/model.js";
import type { Project } from "../domain/project.js";
import type { OnAmountMismatch } from "../payments/amount-rule.js";
import type { Clock } from "../ports/clock.js";
import type { IdGenerator } from "../ports/id-generator.js";
import type { PaymentProvider } from "../ports/payment-provider.js";
import type { Storage } from "../ports/storage.js";
import type { DunningPolicy } from "./renewal-schedule.js";
import type { ChargeResult } from "./renewal-transition.js";

// What a renewal worker is given, tells and reports (renewal-worker.ts).

export interface RenewalWorkerOptions {
  readonly storage: Storage;
  readonly providerFor: (project: Project) => PaymentProvider;
  readonly clock?: Clock;
  readonly ids?: IdGenerator;
  readonly dunning?: DunningPolicy;
  /** Subscriptions claimed per batch (default 50). */
  readonly batchSize?: number;
  /** How long a claimed subscription is held before another worker may take it (default 60 s). */
  readonly leaseMs?: number;
  /** Told about every attempt, for logs and metrics. */
  readonly onRenewal?: (event: RenewalEvent) => void;
  /** Told about every provider word refused for its amount or currency (API.md 10.1). */
  readonly onAmountMismatch?: OnAmountMismatch | undefined;
  readonly onError?: (cause: unknown) => void;
  /** Called after each timed run that ended without an error: the worker's heartbeat. */
  readonly onTick?: () => void;
}

/**
 * What one due subscription came to: a charge's result, `canceled` by a cancel at period end, `paused`
 * by a pause, or `notified` that its trial will end.
 */
export type RenewalOutcome = ChargeResult["kind"] | "canceled" | "paused" | "notified";

export interface RenewalEvent {
  readonly subscription: Subscription;
  /** The cycle attempted, as `Payment.cycle` counts it: 1 = the first charge (API.md 10.2). */
  readonly cycle: number;
  readonly result: RenewalOutcome;
}

export interface RenewalReport {
  readonly claimed: number;
  readonly charged: number;
  readonly declined: number;
  /** Charges the provider has not decided yet: asked about again later. */
  readonly pending: number;
  readonly unavailable: number;
  /** Ended uncharged by a cancel at period end (API.md 11.2). */
  readonly canceled: number;
  /** Paused uncharged at the end of the paid period (API.md 11.4). */
  readonly paused: number;
  /** Told that their trial ends soon (`subscription.trial_will_end`, API.md 11.6). */
  readonly notified: number;
}

export interface RenewalWorker {
  /** Renews every subscription due now, batch after batch, until none is left. */
  runOnce(): Promise<RenewalReport>;
  /** Runs `runOnce` every `intervalMs` until `stop`. */
  start(intervalMs: number): void;
  /** Stops the timer and waits for the batch in progress. */
  stop(): Promise<void>;
}
