import type { Result } from "neverthrow";
import { createUuidV7Generator } from "../crypto/uuid-v7.js";
import type { Payment } from "../domain/model.js";
import { invoiceStatusAt } from "../domain/presenters.js";
import type { Project } from "../domain/project.js";
import { type IntervalJob, startIntervalJob } from "../jobs/interval-job.js";
import { type Clock, systemClock } from "../ports/clock.js";
import type { IdGenerator } from "../ports/id-generator.js";
import type { PaymentProvider, ProviderError, ProviderPayment } from "../ports/payment-provider.js";
import type { Storage } from "../ports/storage.js";
import { checkDueRefunds } from "../refunds/refund-checks.js";
import type { DunningPolicy } from "../renewals/renewal-schedule.js";
import { firstChargeKey } from "../use-cases/first-charge.js";
import { prorationChargeKey } from "../use-cases/proration.js";
import type { OnAmountMismatch } from "./amount-rule.js";
import { resumeInvoiceAttempt } from "./invoice-payments.js";
import { checkPendingSaves } from "./method-save.js";
import { verificationKey } from "./method-update-page.js";
import { NO_PAYMENT_MADE, nextCheckAfter } from "./payment-records.js";
import { settlePayment } from "./settle-payment.js";

export interface PaymentReconcilerOptions {
  readonly storage: Storage;
  readonly providerFor: (project: Project) => PaymentProvider;
  readonly clock?: Clock;
  readonly ids?: IdGenerator;
  /**
   * Base URL of the hosted pages (as KopekOptions.publicUrl): with it, an invoice's attempt whose
   * provider payment Kopek never heard of is asked for again with its own key. Without it, such an
   * attempt waits for the payer to choose again.
   */
  readonly publicUrl?: () => string;
  /** How a renewal that settles declined is retried (the renewal worker's policy); the default when omitted. */
  readonly dunning?: DunningPolicy;
  /** Payments (and, apart, refunds) checked per claim (default 50). */
  readonly batchSize?: number;
  /** Told about every provider word refused for its amount or currency (API.md 10.1). */
  readonly onAmountMismatch?: OnAmountMismatch | undefined;
  /** How long a claimed payment is hidden from other reconcilers while it is checked (default 60 s). */
  readonly leaseMs?: number;
  readonly onError?: (cause: unknown) => void;
  /** Called after each timed run that ended without an error: the reconciler's heartbeat. */
  readonly onTick?: () => void;
}

export interface PaymentReconciler extends IntervalJob {
  /**
   * Checks the payments, the refunds and the method saves due now; how many of them were claimed and
   * how many the provider's answer settled (all together).
   */
  runOnce(): Promise<{ readonly claimed: number; readonly settled: number }>;
}

/**
 * Asks the provider about every payment still `pending` a minute after it was made, and again with
 * back-off until the provider gives a final answer (API.md 10.3.3): a payer who never came back, or
 * a lost notification, loses nothing. Pending refunds are reconciled the same way (10.6,
 * `checkDueRefunds`), and pending saves of a payer's method with no payment are asked about (11.5,
 * `checkPendingSaves`). Claims are leases in storage, so several reconcilers (processes
 * on one PostgreSQL database) never check one payment at once; every write is version-checked.
 */
const onErrorOf = (options: PaymentReconcilerOptions) =>
  options.onError === undefined ? {} : { onError: options.onError };

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
    onAmountMismatch: options.onAmountMismatch,
  };

  async function check(payment: Payment): Promise<boolean> {
    const project = await storage.findProject(payment.projectId);
    if (project.isErr()) throw project.error;
    if (payment.providerPaymentId === null && payment.invoiceId !== null && options.publicUrl !== undefined) {
      const resumed = await resumeInvoiceAttempt({ ...context, publicUrl: options.publicUrl }, payment);
      if (resumed.isOk()) return resumed.value.status !== "pending";
    }
    const provider = project.value === null ? null : options.providerFor(project.value);
    const answer =
      provider === null
        ? null
        : payment.providerPaymentId !== null
          ? await provider.getPayment(payment.providerPaymentId)
          : await unansweredCharge(payment, provider);
    // Nothing to ask the provider (a renewal attempt without an answer, which the renewal worker sends
    // again with its key; an invoice attempt without `publicUrl` to resume it): the claim's lease is
    // all that changes, so the write that answers it never meets a newer version.
    if (provider !== null && answer === null) return false;
    if (provider === null || answer === null || answer.isErr()) {
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
    const final = answer.value.status === "pending" ? await cancelIfClosed(payment, provider) : null;
    const settled = await settlePayment(context, payment, final ?? answer.value);
    if (settled.isErr()) throw settled.error;
    return settled.value.status !== "pending";
  }

  /**
   * What became of a charge whose request never stored its answer: a proration's (API.md 11.3), a
   * method-update link's verification payment (11.5), or a
   * subscription's first charge whose create never stored the subscription (the write after the charge
   * failed, or the process died). The provider is asked by the charge's key, and a charge it never made
   * is settled canceled. Null for any other payment without a provider id (a renewal's is sent again by
   * the renewal worker) and while the subscription may still be stored.
   */
  async function unansweredCharge(
    payment: Payment,
    provider: PaymentProvider,
  ): Promise<Result<ProviderPayment, ProviderError> | null> {
    if (payment.kind === "proration" || payment.kind === "verification") {
      const key = payment.kind === "proration" ? prorationChargeKey(payment.id) : verificationKey(payment.id);
      const found = await provider.findPaymentByKey({
        idempotencyKey: key,
        paymentId: payment.id,
        createdAt: payment.createdAt,
      });
      return found.map((made) => made ?? NO_PAYMENT_MADE);
    }
    if (payment.subscriptionId === null || payment.cycle !== 1 || payment.kind !== "cycle") return null;
    const subscription = await storage.findSubscription(payment.projectId, payment.subscriptionId);
    if (subscription.isErr()) throw subscription.error;
    if (subscription.value !== null) return null;
    const found = await provider.findPaymentByKey({
      idempotencyKey: firstChargeKey(payment.subscriptionId),
      paymentId: payment.id,
      createdAt: payment.createdAt,
    });
    return found.map((made) => made ?? NO_PAYMENT_MADE);
  }

  /**
   * A payment still pending for an invoice that expired or was canceled meanwhile is canceled at the
   * provider where the provider allows it (API.md 10.3.6), so the payer cannot pay a closed invoice;
   * the provider's answer is what is settled. Null when there is nothing to cancel.
   */
  async function cancelIfClosed(
    payment: Payment,
    provider: PaymentProvider,
  ): Promise<ProviderPayment | null> {
    if (payment.invoiceId === null || !provider.capabilities.cancelPending) return null;
    const invoice = await storage.findInvoice(payment.projectId, payment.invoiceId);
    if (invoice.isErr()) throw invoice.error;
    if (invoice.value === null || invoiceStatusAt(invoice.value, clock.now()) === "created") return null;
    const canceled = await provider.cancelPayment({
      providerPaymentId: payment.providerPaymentId ?? "",
      idempotencyKey: `kopek:cancel:${payment.id}`,
    });
    return canceled.isOk() ? canceled.value : null;
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
    const refunds = await checkDueRefunds({ ...context, batchSize, leaseMs, ...onErrorOf(options) });
    const saves = await checkPendingSaves({ ...context, batchSize, ...onErrorOf(options) });
    return {
      claimed: claimed.value.length + refunds.claimed + saves.claimed,
      settled: settled + refunds.settled + saves.settled,
    };
  }

  return startIntervalJob(
    runOnce,
    (cause) => options.onError?.(cause),
    () => options.onTick?.(),
  );
}
