import { err, ok, type Result } from "neverthrow";
import type { KopekError } from "../domain/errors.js";
import type { Invoice, Payment, SavedMethod, Subscription } from "../domain/model.js";
import type { Project } from "../domain/project.js";
import { type DomainEvent, invoiceEvent, paymentEvent, subscriptionEvent } from "../events/domain-event.js";
import { renewalEvents } from "../events/renewal-events.js";
import type { PaymentProvider, ProviderPayment } from "../ports/payment-provider.js";
import type { StorageError } from "../ports/storage-error.js";
import { refundWhileSettling } from "../refunds/refund-payment.js";
import { DEFAULT_DUNNING_POLICY, type DunningPolicy } from "../renewals/renewal-schedule.js";
import { applyChargeResult, periodOfCycle } from "../renewals/renewal-transition.js";
import { fromStorageError } from "../use-cases/execution.js";
import { trustedPaymentAnswer } from "./amount-rule.js";
import type { PaymentContext } from "./payment-page.js";
import { FIRST_CHECK_AFTER_MS, nextCheckAfter } from "./payment-records.js";
import { putMethodOn } from "./settle-verification.js";

/** What settling a payment needs: storage, clock, ids, the provider (to refund money that must go back). */
export interface SettleContext extends PaymentContext {
  readonly providerFor: (project: Project) => PaymentProvider;
  /** How a renewal that settles declined is retried; the default policy when omitted. */
  readonly dunning?: DunningPolicy;
}

/** How many times a write that lost a race re-reads and tries again. */
const ATTEMPTS = 3;

/**
 * Applies the provider's verified answer to a payment (API.md 10.1, 10.3.4, 10.5). Still pending, only
 * its provider id and mask are noted. Final, the Payment and what it pays change in one atomic step
 * with their events: an invoice becomes `paid` (`invoice.paid`); an incomplete subscription `active`
 * (`subscription.activated`) or `canceled`; a renewal advances the subscription or starts dunning.
 * A canceled payment adds `payment.canceled`. A payment already final is left as it is, so a repeated
 * answer changes nothing. Money that moved for an invoice already paid (or closed), or for a
 * subscription never stored (its create failed after the charge), is refunded at once (10.3.5) through
 * a stored Refund. A word whose amount or currency is not the Payment's settles nothing
 * (`trustedPaymentAnswer`): the Payment stays pending and is asked about again.
 */
export async function settlePayment(
  context: SettleContext,
  first: Payment,
  word: ProviderPayment,
): Promise<Result<Payment, KopekError>> {
  // Judged once, before any retry: a word for other money settles nothing, reported once (API.md 10.1).
  const answer =
    first.status === "pending" ? trustedPaymentAnswer(first, word, context.onAmountMismatch) : word;
  let payment = first;
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    if (payment.status !== "pending") return ok(payment);
    const now = context.clock.now();
    const next: Payment = {
      ...payment,
      providerPaymentId: payment.providerPaymentId ?? (answer.providerPaymentId || null),
      methodMask: answer.methodMask ?? payment.methodMask,
      status: answer.status,
      failureCode: answer.status === "canceled" ? answer.failureCode : null,
      succeededAt: answer.status === "succeeded" ? now : null,
      canceledAt: answer.status === "canceled" ? now : null,
      nextCheckAt: answer.status === "pending" ? nextCheckAfter(payment.createdAt, now) : null,
      version: payment.version + 1,
    };
    const saved = await saveSettled(context, next, answer, now);
    if (saved.isErr()) return err(saved.error);
    if (saved.value === "saved") return ok(next);
    const reread = await context.storage.findPayment(payment.projectId, payment.id);
    if (reread.isErr()) return err(fromStorageError(reread.error));
    if (reread.value === null) return err({ code: "not_found" });
    // Refunded as it was settled (its refund's success included), or noted and deferred: as stored now.
    if (saved.value === "unneeded" || saved.value === "deferred") return ok(reread.value);
    payment = reread.value;
  }
  return err({ code: "internal_error", cause: new Error("settle: the payment kept changing") });
}

/** `deferred`: stored still pending, the word noted (see `saveWithSubscription`). */
type SaveOutcome = "saved" | "lost_race" | "unneeded" | "deferred";

/** Whether a payment is younger than the reconciler's first wait: the request that made it may still be retried. */
const isYoung = (payment: Payment, now: Date) =>
  now.getTime() - payment.createdAt.getTime() < FIRST_CHECK_AFTER_MS;

/** Writes a settled payment with what it pays; `lost_race` when a write lost a race. */
async function saveSettled(
  context: SettleContext,
  payment: Payment,
  answer: ProviderPayment,
  now: Date,
): Promise<Result<SaveOutcome, KopekError>> {
  const events: DomainEvent[] =
    payment.status === "canceled" ? [paymentEvent("payment.canceled", payment, now, context.ids)] : [];
  if (payment.kind === "proration") return saveUnapplied(context, payment, events, now);
  if (payment.kind === "verification") return saveVerification(context, payment, answer, events, now);
  if (payment.subscriptionId !== null) return saveWithSubscription(context, payment, events, now);
  let invoice: Invoice | null = null;
  if (payment.invoiceId !== null) {
    const found = await context.storage.findInvoice(payment.projectId, payment.invoiceId);
    if (found.isErr()) return err(fromStorageError(found.error));
    invoice = found.value;
  }
  if (payment.status === "succeeded" && invoice?.status === "created") {
    // The money moved: an invoice still stored as created is paid, even past its expiry.
    const paid: Invoice = {
      ...invoice,
      status: "paid",
      method: payment.method,
      paidAt: now,
      savedMethod: savedMethodOf(invoice, payment, answer),
      version: invoice.version + 1,
    };
    events.push(invoiceEvent("invoice.paid", paid, now, context.ids));
    return outcomeOf(await context.storage.saveInvoice(paid, events, [payment]), "saved");
  }
  // Money for an invoice already paid by another attempt, or closed: it goes back (10.3.5).
  if (payment.status === "succeeded" && invoice !== null)
    return refundUnneeded(context, payment, events, UNNEEDED_REASON);
  return outcomeOf(await context.storage.savePayment(payment, events), "saved");
}

/**
 * The method the provider saved with an invoice's payment, kept with the invoice (API.md 10.5): only
 * when the invoice asked for it, so a provider that saves unasked leaves no token behind.
 */
function savedMethodOf(invoice: Invoice, payment: Payment, answer: ProviderPayment): SavedMethod | null {
  const saved = answer.savedMethod;
  if (!invoice.savePaymentMethod || saved === null) return null;
  return {
    method: payment.method,
    methodMask: saved.methodMask ?? payment.methodMask,
    providerMethodRef: saved.ref,
  };
}

/**
 * A proration settled here, not by its request (API.md 11.3): the request stores the change it pays for
 * with its succeeded Payment, in one step, so one that succeeds here paid for a change never made and
 * goes back — once the request can no longer be retried (the reconciler's first wait), as for a create.
 */
async function saveUnapplied(
  context: SettleContext,
  payment: Payment,
  events: DomainEvent[],
  now: Date,
): Promise<Result<SaveOutcome, KopekError>> {
  if (payment.status === "succeeded" && isYoung(payment, now)) return deferred(context, payment, now);
  if (payment.status === "succeeded") return refundUnneeded(context, payment, events, UNAPPLIED_REASON);
  return outcomeOf(await context.storage.savePayment(payment, events), "saved");
}

/**
 * A verification payment settled (API.md 11.5): succeeded, the method it saved is put on its
 * subscription first (`putMethodOn`), then the payment is stored with its full refund reserved in one
 * step and refunded at once — a crash in between leaves it pending, settled again later.
 */
async function saveVerification(
  context: SettleContext,
  payment: Payment,
  answer: ProviderPayment,
  events: DomainEvent[],
  now: Date,
): Promise<Result<SaveOutcome, KopekError>> {
  if (payment.status !== "succeeded")
    return outcomeOf(await context.storage.savePayment(payment, events), "saved");
  const put = await putMethodOn(context, payment, answer.savedMethod, now);
  if (put.isErr()) return err(put.error);
  return refundUnneeded(context, payment, events, VERIFICATION_REASON);
}

/** The word noted on a payment kept pending: its request's retry, or the reconciler after its first wait, settles it. */
async function deferred(
  context: SettleContext,
  payment: Payment,
  now: Date,
): Promise<Result<SaveOutcome, KopekError>> {
  const noted: Payment = {
    ...payment,
    status: "pending",
    succeededAt: null,
    nextCheckAt: nextCheckAfter(payment.createdAt, now),
  };
  return outcomeOf(await context.storage.savePayment(noted, []), "deferred");
}

/** A subscription's charge settled: its first (an incomplete subscription) or a renewal's. */
async function saveWithSubscription(
  context: SettleContext,
  payment: Payment,
  events: DomainEvent[],
  now: Date,
): Promise<Result<SaveOutcome, KopekError>> {
  const found = await context.storage.findSubscription(payment.projectId, payment.subscriptionId ?? "");
  if (found.isErr()) return err(fromStorageError(found.error));
  const current = found.value;
  // A word before the create stored its subscription — a notification racing a lost answer (10.4):
  // the client's retry with its key may still store it, so within the reconciler's first wait the
  // Payment stays pending with its provider id; the retry or the reconciler settles it after.
  if (current === null && payment.status === "succeeded" && isYoung(payment, now))
    return deferred(context, payment, now);
  // Money moved for a subscription that was never stored (its create failed after the charge): it goes back.
  if (current === null && payment.status === "succeeded")
    return refundUnneeded(context, payment, events, ORPHAN_REASON);
  if (current === null || payment.status === "pending")
    return outcomeOf(await context.storage.savePayment(payment, events), "saved");
  const next = settledSubscription(current, payment, now, context.dunning ?? DEFAULT_DUNNING_POLICY);
  events.push(...subscriptionEvents(current, next, now, context));
  return outcomeOf(await context.storage.saveSubscription(next, events, [payment]), "saved");
}

function settledSubscription(
  subscription: Subscription,
  payment: Payment,
  now: Date,
  policy: DunningPolicy,
): Subscription {
  const succeeded = payment.status === "succeeded";
  if (subscription.status === "incomplete") {
    const base = { ...subscription, version: subscription.version + 1 };
    return succeeded
      ? { ...base, status: "active", cyclesStarted: 1, lastChargedAt: now }
      : { ...base, status: "canceled", canceledAt: now, cancelReason: "payment_failed" };
  }
  return applyChargeResult(
    subscription,
    periodOfCycle(payment.cycle ?? 1),
    { kind: succeeded ? "charged" : "declined", at: now },
    policy,
  );
}

function subscriptionEvents(
  before: Subscription,
  after: Subscription,
  at: Date,
  context: SettleContext,
): DomainEvent[] {
  if (before.status !== "incomplete") return renewalEvents(before, after, at, context.ids);
  const type = after.status === "active" ? "subscription.activated" : "subscription.canceled";
  return [subscriptionEvent(type, after, at, context.ids)];
}

function outcomeOf(saved: Result<void, StorageError>, outcome: SaveOutcome): Result<SaveOutcome, KopekError> {
  if (saved.isOk()) return ok(outcome);
  return saved.error.code === "conflict" ? ok("lost_race") : err(fromStorageError(saved.error));
}

/** Why Kopek refunds a payment it must not keep, as the refund's `reason` says. */
const UNNEEDED_REASON = "the invoice was already paid or closed";
const ORPHAN_REASON = "the subscription it was charged for was never created";
const UNAPPLIED_REASON = "the subscription change it was charged for was not made";
const VERIFICATION_REASON = "a verification of a new payment method, refunded at once";

/**
 * A payment that moved money Kopek must not keep (a second success for one invoice, or a success for
 * an invoice closed meanwhile) is stored with its full refund reserved in the same atomic step, then
 * refunded like any refund (API.md 10.3.5, 10.6): a refund the provider did not answer is retried by
 * reconciliation.
 */
async function refundUnneeded(
  context: SettleContext,
  payment: Payment,
  events: readonly DomainEvent[],
  reason: string,
): Promise<Result<SaveOutcome, KopekError>> {
  const project = await context.storage.findProject(payment.projectId);
  if (project.isErr()) return err(fromStorageError(project.error));
  if (project.value === null) return outcomeOf(await context.storage.savePayment(payment, events), "saved");
  const provider = context.providerFor(project.value);
  const refunded = await refundWhileSettling({ ...context, provider }, payment, events, reason);
  if (refunded.isErr()) return err(refunded.error);
  return ok(refunded.value === "conflict" ? "lost_race" : "unneeded");
}
