import { createUuidV7Generator } from "../crypto/uuid-v7.js";
import type { Payment, Project } from "../domain/model.js";
import { type IntervalJob, startIntervalJob } from "../jobs/interval-job.js";
import { type Clock, systemClock } from "../ports/clock.js";
import type { IdGenerator } from "../ports/id-generator.js";
import type { PaymentProvider } from "../ports/payment-provider.js";
import type { Storage } from "../ports/storage.js";
import type { DunningPolicy } from "../renewals/renewal-schedule.js";
import { nextCheckAfter } from "./payment-records.js";
import { settlePayment } from "./settle-payment.js";

export interface PaymentReconcilerOptions {
  readonly storage: Storage;
  readonly providerFor: (project: Project) => PaymentProvider;
  readonly clock?: Clock;
  readonly ids?: IdGenerator;
  /** How a renewal that settles declined is retried (the renewal worker's policy); the default when omitted. */
  readonly dunning?: DunningPolicy;
  /** Payments checked per claim (default 50). */
  readonly batchSize?: number;
  /** How long a claimed payment is hidden from other reconcilers while it is checked (default 60 s). */
  readonly leaseMs?: number;
  readonly onError?: (cause: unknown) => void;
}

export interface PaymentReconciler extends IntervalJob {
  /** Checks the payments due now; how many were claimed and how many the provider's answer settled. */
  runOnce(): Promise<{ readonly claimed: number; readonly settled: number }>;
}

/**
 * Asks the provider about every payment still `pending` a minute after it was made, and again with
 * back-off until the provider gives a final answer (API.md 10.3.3): a payer who never came back, or
 * a lost notification, loses nothing. Claims are leases in storage, so several reconcilers (processes
 * on one PostgreSQL database) never check one payment at once; every write is version-checked.
 */
export function createPaymentReconciler(options: PaymentReconcilerOptions): PaymentReconciler {
  const clock = options.clock ?? systemClock;
  const ids = options.ids ?? createUuidV7Generator({ clock });
  const batchSize = options.batchSize ?? 50;
  const leaseMs = options.leaseMs ?? 60_000;
  const { storage } = options;
  const context = {
    storage,
    clock,
    ids,
    providerFor: options.providerFor,
    ...(options.dunning === undefined ? {} : { dunning: options.dunning }),
  };

  async function check(payment: Payment): Promise<boolean> {
    const project = await storage.findProject(payment.projectId);
    if (project.isErr()) throw project.error;
    const answer =
      project.value === null || payment.providerPaymentId === null
        ? null
        : await options.providerFor(project.value).getPayment(payment.providerPaymentId);
    if (answer === null || answer.isErr()) {
      // Nothing to ask, or no answer: asked again later, backing off; the lease keeps it meanwhile.
      const later = {
        ...payment,
        nextCheckAt: nextCheckAfter(payment.createdAt, clock.now()),
        version: payment.version + 1,
      };
      const saved = await storage.savePayment(later, []);
      if (saved.isErr() && saved.error.code !== "conflict") throw saved.error;
      return false;
    }
    const settled = await settlePayment(context, payment, answer.value);
    if (settled.isErr()) throw settled.error;
    return settled.value.status !== "pending";
  }

  async function runOnce() {
    const now = clock.now();
    const claimed = await storage.claimPaymentChecks({
      now,
      limit: batchSize,
      leaseExpiresAt: new Date(now.getTime() + leaseMs),
    });
    if (claimed.isErr()) throw claimed.error;
    let settled = 0;
    for (const payment of claimed.value) {
      try {
        if (await check(payment)) settled += 1;
      } catch (cause) {
        // One payment's failure does not stop the batch; its lease runs out and it is checked again.
        options.onError?.(cause);
      }
    }
    return { claimed: claimed.value.length, settled };
  }

  return startIntervalJob(runOnce, (cause) => options.onError?.(cause));
}
