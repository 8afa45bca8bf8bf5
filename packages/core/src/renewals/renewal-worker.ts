import { createUuidV7Generator } from "../crypto/uuid-v7.js";
import type { Payment, Subscription } from "../domain/model.js";
import type { Project } from "../domain/project.js";
import { paymentEvent } from "../events/domain-event.js";
import { renewalEvents } from "../events/renewal-events.js";
import { startIntervalJob } from "../jobs/interval-job.js";
import { trustedPaymentAnswer } from "../payments/amount-rule.js";
import {
  answeredOver,
  newPayment,
  type PaymentAnswer,
  type PaymentSubject,
  subscriptionPaymentSubject,
} from "../payments/payment-records.js";
import { settlePayment } from "../payments/settle-payment.js";
import { systemClock } from "../ports/clock.js";
import type { PaymentProvider } from "../ports/payment-provider.js";
import { findOpenCharge } from "./open-charge.js";
import { endAtPeriodEnd, endsAtPeriodEnd, pauseAtPeriodEnd, pausesAtPeriodEnd } from "./period-end.js";
import { DEFAULT_DUNNING_POLICY } from "./renewal-schedule.js";
import {
  applyChargeResult,
  type ChargeResult,
  cycleOfPeriod,
  cycleToCharge,
  periodOfCycle,
  renewalChargeKey,
} from "./renewal-transition.js";
import type {
  RenewalOutcome,
  RenewalReport,
  RenewalWorker,
  RenewalWorkerOptions,
} from "./renewal-worker-types.js";
import { sendTrialNotice, trialNoticeDue } from "./trial-notice.js";

/** Whether renewal state changed since `claimed`: another worker recorded an attempt meanwhile. */
function renewalMoved(claimed: Subscription, current: Subscription): boolean {
  return (
    current.nextCycle !== claimed.nextCycle ||
    current.declines !== claimed.declines ||
    current.cyclesStarted !== claimed.cyclesStarted ||
    current.nextAttemptAt.getTime() !== claimed.nextAttemptAt.getTime()
  );
}

/**
 * Charges due subscriptions exactly once per cycle. A claim leases a batch in storage so any number
 * of workers (processes) never charge the same subscription at once; each charge carries a key derived
 * from the subscription, cycle and decline count, so a worker that dies mid-batch and is replaced
 * after its lease does not charge twice; and every write is version-checked, so a cancel that lands
 * during a charge is never overwritten.
 */
export function createRenewalWorker(options: RenewalWorkerOptions): RenewalWorker {
  const clock = options.clock ?? systemClock;
  const ids = options.ids ?? createUuidV7Generator({ clock });
  const policy = options.dunning ?? DEFAULT_DUNNING_POLICY;
  const batchSize = options.batchSize ?? 50;
  const leaseMs = options.leaseMs ?? 60_000;
  const { storage } = options;

  const settleContext = {
    storage,
    clock,
    ids,
    providerFor: options.providerFor,
    dunning: policy,
    onAmountMismatch: options.onAmountMismatch,
  };

  async function renew(subscription: Subscription, project: Project): Promise<RenewalOutcome> {
    const provider = options.providerFor(project);
    const now = clock.now();
    if (trialNoticeDue(subscription, now))
      return uncharged(subscription, "notified", sendTrialNotice(storage, subscription, now, ids));
    const open = await openCharge(subscription);
    // A charge the provider answered pending is asked about, never charged again (API.md 10.5).
    if (open?.providerPaymentId != null) return check(subscription, open, provider);
    if (open === null && endsAtPeriodEnd(subscription, now))
      return uncharged(subscription, "canceled", endAtPeriodEnd(storage, subscription, now, ids));
    if (open === null && pausesAtPeriodEnd(subscription, now))
      return uncharged(subscription, "paused", pauseAtPeriodEnd(storage, subscription, now, ids));
    // `cycle` is the schedule's period (renewal-transition.ts); Payments and events count cycles from 1.
    // An earlier attempt with no answer is sent again for its own cycle, with its own key.
    const cycle = open?.cycle != null ? periodOfCycle(open.cycle) : cycleToCharge(subscription, clock.now());
    const subject = (providerPaymentId: string | null): PaymentSubject =>
      subscriptionPaymentSubject(subscription, {
        provider: project.provider.kind,
        providerPaymentId,
        cycle: cycleOfPeriod(cycle),
      });
    // No charge without a record: the attempt's pending Payment is committed first, with the
    // subscription moved off its schedule, so an attempt whose answer is lost (a crash, a failed write)
    // is found (`openCharge`) and sent again with its own key, never a new one.
    const attempt =
      open === null ? await recordAttempt(subscription, subject(null)) : { payment: open, subscription };
    if (attempt === null) return "unavailable";
    const { payment: recorded, subscription: claimed } = attempt;
    const charge = await provider.chargeStoredMethod({
      paymentId: recorded.id,
      ref: subscription.providerMethodRef,
      method: subscription.method,
      money: subscription.amount,
      description: subscription.description,
      // Every renewal registers the receipt again: each charge is a sale of its own (API.md 10.7).
      receipt: subscription.receipt,
      idempotencyKey: renewalChargeKey(subscription, cycleOfPeriod(cycle)),
    });
    // Kopek's clock, not the provider's: every timestamp of a subscription comes from one clock.
    const at = clock.now();
    // A word for other money than the subscription's settles nothing: the charge stays pending (API.md 10.1).
    const answer = charge.isOk()
      ? trustedPaymentAnswer(recorded, charge.value, options.onAmountMismatch)
      : null;
    const kind: ChargeResult["kind"] =
      answer === null
        ? "unavailable"
        : answer.status === "succeeded"
          ? "charged"
          : answer.status === "canceled"
            ? "declined"
            : "pending";
    const status: PaymentAnswer =
      answer === null || answer.status === "pending"
        ? { status: "pending" }
        : answer.status === "succeeded"
          ? { status: "succeeded" }
          : { status: "canceled", failureCode: answer.failureCode ?? "payment_declined" };
    const answered = newPayment(subject(answer?.providerPaymentId ?? null), status, recorded.id, at);
    // No answer: the recorded Payment stays pending as it is, sent again with the same key, never a new one.
    const payments = charge.isErr() ? [] : [answeredOver(recorded, answered)];
    await save(claimed, cycle, { kind, at }, payments);
    options.onRenewal?.({ subscription, cycle: cycleOfPeriod(cycle), result: kind });
    return kind;
  }

  /** A due subscription taken up without a charge; `unavailable` when its write lost a race (it comes back). */
  async function uncharged(
    subscription: Subscription,
    result: "notified" | "canceled" | "paused",
    written: Promise<boolean>,
  ): Promise<RenewalOutcome> {
    if (!(await written)) return "unavailable";
    options.onRenewal?.({ subscription, cycle: cycleOfPeriod(subscription.nextCycle), result });
    return result;
  }

  /**
   * Commits an attempt's pending Payment with the subscription moved off its schedule (so `openCharge`
   * looks for the Payment) until this worker's lease ends; null when that write failed or lost a race (a cancel, a
   * takeover): nothing is charged then, and the subscription comes back when its lease ends.
   */
  async function recordAttempt(
    subscription: Subscription,
    subject: PaymentSubject,
  ): Promise<{ payment: Payment; subscription: Subscription } | null> {
    const now = clock.now();
    const payment = newPayment(subject, { status: "pending" }, ids.newId(), now);
    // Due again when this worker's lease ends: another worker then takes over and sends the same key.
    const moved = {
      ...subscription,
      nextAttemptAt: new Date(now.getTime() + leaseMs),
      version: subscription.version + 1,
    };
    const saved = await storage.saveSubscription(moved, [], [payment]);
    if (saved.isErr() && saved.error.code !== "conflict") throw saved.error;
    return saved.isOk() ? { payment, subscription: moved } : null;
  }

  /** This subscription's cycle charge still pending, or null (`findOpenCharge`). */
  async function openCharge(subscription: Subscription): Promise<Payment | null> {
    const listed = await (findOpenCharge(storage, subscription) ?? null);
    if (listed === null) return null;
    if (listed.isErr()) throw listed.error;
    return listed.value;
  }

  /** Asks the provider about a pending charge; settled, the subscription moves with it; else it waits. */
  async function check(
    subscription: Subscription,
    open: Payment,
    provider: PaymentProvider,
  ): Promise<ChargeResult["kind"]> {
    const cycle = open.cycle ?? 1;
    const answer = await provider.getPayment(open.providerPaymentId ?? "");
    if (answer.isOk()) {
      const settled = await settlePayment(settleContext, open, answer.value);
      if (settled.isErr()) throw settled.error;
      const final = settled.value.status;
      if (final !== "pending") {
        const kind = final === "succeeded" ? "charged" : "declined";
        options.onRenewal?.({ subscription, cycle, result: kind });
        return kind;
      }
    }
    const kind = answer.isOk() ? "pending" : "unavailable";
    await save(subscription, periodOfCycle(cycle), { kind, at: clock.now() }, []);
    options.onRenewal?.({ subscription, cycle, result: kind });
    return kind;
  }

  // A conflict means someone wrote in between. A cancel changes no renewal field: the result is applied
  // to what is stored now. Another worker that took over after this one's lease ran out and already
  // recorded this attempt (same key, so the same charge) changed them: nothing is left to record.
  async function save(
    claimed: Subscription,
    cycle: number,
    result: ChargeResult,
    payments: readonly Payment[],
  ): Promise<void> {
    let current = claimed;
    for (let attempt = 0; attempt < 5; attempt++) {
      if (current !== claimed && renewalMoved(claimed, current)) return;
      const next = applyChargeResult(current, cycle, result, policy);
      // What happened to the payment first, then what it did to the subscription.
      const events = payments
        .filter((payment) => payment.status === "canceled")
        .map((payment) => paymentEvent("payment.canceled", payment, result.at, ids));
      events.push(...renewalEvents(current, next, result.at, ids));
      const saved = await storage.saveSubscription(next, events, payments);
      if (saved.isOk()) return;
      if (saved.error.code !== "conflict") throw saved.error;
      const reread = await storage.findSubscription(current.projectId, current.id);
      if (reread.isErr()) throw reread.error;
      if (reread.value === null) return;
      current = reread.value;
    }
    throw new Error(
      `renewal: subscription ${claimed.id} kept changing; its lease will expire and it is retried`,
    );
  }

  async function runBatches(): Promise<RenewalReport> {
    const report = {
      claimed: 0,
      charged: 0,
      declined: 0,
      pending: 0,
      unavailable: 0,
      canceled: 0,
      paused: 0,
      notified: 0,
    };
    const projects = new Map<string, Project | null>();
    for (;;) {
      const now = clock.now();
      const claim = {
        now,
        limit: batchSize,
        leaseToken: ids.newId(),
        leaseExpiresAt: new Date(now.getTime() + leaseMs),
      };
      const batch = await storage.claimDueSubscriptions(claim);
      if (batch.isErr()) throw batch.error;
      if (batch.value.length === 0) return report;
      report.claimed += batch.value.length;
      const outcomes = await Promise.allSettled(
        batch.value.map(async (subscription) => {
          const project = await projectOf(subscription.projectId, projects);
          return project === null ? undefined : renew(subscription, project);
        }),
      );
      for (const outcome of outcomes) {
        if (outcome.status === "rejected") options.onError?.(outcome.reason);
        else if (outcome.value !== undefined) report[outcome.value] += 1;
      }
      // Anything left unsaved stays leased and comes back when its lease ends, not in this run.
      if (batch.value.length < batchSize) return report;
    }
  }

  async function projectOf(projectId: string, cache: Map<string, Project | null>): Promise<Project | null> {
    if (!cache.has(projectId)) {
      const found = await storage.findProject(projectId);
      if (found.isErr()) throw found.error;
      cache.set(projectId, found.value);
    }
    return cache.get(projectId) ?? null;
  }

  // The same never-twice-at-once timer as the webhook dispatcher and the invoice sweeper.
  return startIntervalJob(
    runBatches,
    (cause) => options.onError?.(cause),
    () => options.onTick?.(),
  );
}
