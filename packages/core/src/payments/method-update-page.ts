import { err, ok, type Result } from "neverthrow";
import type { KopekError } from "../domain/errors.js";
import {
  MAX_METHOD_UPDATE_ATTEMPTS,
  type MethodSave,
  type MethodUpdate,
  verificationAmountOf,
} from "../domain/method-update.js";
import type { Money, Payment, PaymentMethod, Period, Subscription } from "../domain/model.js";
import type { Project } from "../domain/project.js";
import { oneItemReceipt } from "../domain/receipt.js";
import { chargeableLater } from "../ports/payment-provider.js";
import { fromStorageError } from "../use-cases/execution.js";
import { type InvoicePaymentContext, paymentToConfirm } from "./invoice-payments.js";
import { askAboutSave, startSave } from "./method-save.js";
import { methodUpdateReturnPath } from "./page-paths.js";
import { newPayment, subscriptionPaymentSubject } from "./payment-records.js";
import { providerNotificationUrl } from "./provider-notifications.js";
import { settlePayment } from "./settle-payment.js";

/** What the method-update page shows (API.md 11.5); the server only renders it. */
export interface MethodUpdatePage {
  /**
   * `open` while a method can be saved; `completed` once one was (through this link); `expired` past
   * `expiresAt` or replaced by a newer link; `closed` for a subscription canceled meanwhile;
   * `attempts_exhausted` after `MAX_METHOD_UPDATE_ATTEMPTS` verification payments.
   */
  readonly state: "open" | "completed" | "expired" | "closed" | "attempts_exhausted";
  readonly projectId: string;
  readonly subscriptionId: string;
  readonly updateId: string;
  /** Who is paid, as the payer sees it: the project's `displayName`, else its `name`. */
  readonly merchantName: string;
  readonly description: string;
  /** What each cycle charges, and how often. */
  readonly amount: Money;
  readonly period: Period;
  /** The method now on the subscription: the new one once `completed`. */
  readonly methodMask: string;
  /** Whether the subscription is past due: saving a method charges its overdue cycle at once. */
  readonly pastDue: boolean;
  /**
   * The methods the payer may save, each with the verification payment it takes (refunded at once), or
   * null for one the provider saves with no payment.
   */
  readonly methods: readonly { readonly method: PaymentMethod; readonly verification: Money | null }[];
  readonly expiresAt: Date;
  /** Where choosing a method may send the payer: the provider's `confirmationOrigins`. */
  readonly confirmationOrigins: readonly string[];
  /** Whether the project pays through the sandbox provider: the page says no money moves. */
  readonly test: boolean;
}

/** Which link a page request names: its project, subscription and id, as its URL says. */
export interface MethodUpdateAddress {
  readonly projectId: string;
  readonly subscriptionId: string;
  readonly updateId: string;
}

interface Loaded {
  readonly subscription: Subscription;
  readonly project: Project;
  /** The link, or null when the subscription's link is another (a newer one) or none. */
  readonly update: MethodUpdate | null;
}

/** How many times a write that lost a race re-reads and tries again. */
const ATTEMPTS = 3;

/**
 * The cycle (as Payments count) whose period a verification payment is made in: the unpaid one of a
 * past-due subscription, else the last one started (the first, during a trial).
 */
function currentCycle(subscription: Subscription): number {
  return subscription.status === "past_due"
    ? subscription.nextCycle + 1
    : Math.max(1, subscription.nextCycle);
}

/** The provider key of a verification payment: derived from its Payment alone, for reconciliation too. */
export function verificationKey(paymentId: string): string {
  return `kopek:verification:${paymentId}`;
}

async function load(
  context: InvoicePaymentContext,
  at: MethodUpdateAddress,
): Promise<Result<Loaded, KopekError>> {
  const found = await context.storage.findSubscription(at.projectId, at.subscriptionId);
  if (found.isErr()) return err(fromStorageError(found.error));
  const subscription = found.value;
  if (subscription === null) return err({ code: "not_found" });
  const project = await context.storage.findProject(at.projectId);
  if (project.isErr()) return err(fromStorageError(project.error));
  if (project.value === null) return err({ code: "not_found" });
  const update = subscription.methodUpdate?.id === at.updateId ? subscription.methodUpdate : null;
  return ok({ subscription, project: project.value, update });
}

function stateOf({ subscription, update }: Loaded, now: Date): MethodUpdatePage["state"] {
  if (update === null) return "expired";
  if (update.completedBy !== null) return "completed";
  if (subscription.status === "canceled" || subscription.status === "incomplete") return "closed";
  if (update.expiresAt.getTime() <= now.getTime()) return "expired";
  return update.attempts >= MAX_METHOD_UPDATE_ATTEMPTS ? "attempts_exhausted" : "open";
}

function pageOf(context: InvoicePaymentContext, loaded: Loaded, at: MethodUpdateAddress): MethodUpdatePage {
  const { subscription, project, update } = loaded;
  const { capabilities, methodSaves } = context.providerFor(project);
  const currency = subscription.amount.currency;
  return {
    state: stateOf(loaded, context.clock.now()),
    projectId: subscription.projectId,
    subscriptionId: subscription.id,
    updateId: at.updateId,
    merchantName: project.displayName ?? project.name,
    description: subscription.description,
    amount: subscription.amount,
    period: subscription.period,
    methodMask: subscription.methodMask,
    pastDue: subscription.status === "past_due",
    methods: chargeableLater(capabilities).map((method) => ({
      method,
      verification: methodSaves?.methods.includes(method)
        ? null
        : { amount: verificationAmountOf(capabilities.verificationAmount, method), currency },
    })),
    expiresAt: update?.expiresAt ?? subscription.createdAt,
    confirmationOrigins: capabilities.confirmationOrigins,
    test: project.provider.kind === "sandbox",
  };
}

/** GET /method/{projectId}/{subscriptionId}/{id}: the page; `not_found` for an unknown subscription. */
export async function methodUpdatePage(
  context: InvoicePaymentContext,
  at: MethodUpdateAddress,
): Promise<Result<MethodUpdatePage, KopekError>> {
  return (await load(context, at)).map((loaded) => pageOf(context, loaded, at));
}

/**
 * Where the payer goes next: to the provider to confirm a verification payment (`confirm`) or a save
 * with no payment (`confirm_save`), or nowhere (the page says why).
 */
export type StartedMethodUpdate =
  | { readonly kind: "confirm"; readonly url: string; readonly payment: Payment }
  | { readonly kind: "confirm_save"; readonly url: string; readonly save: MethodSave }
  | { readonly kind: "not_open"; readonly page: MethodUpdatePage };

/**
 * The payer chose a method on the page (API.md 11.5): a `pending` verification Payment of the smallest
 * amount the provider takes for it, stored with the link's `attempts` bumped in the subscription's
 * version-checked write (two tabs make two attempts, never more than `MAX_METHOD_UPDATE_ATTEMPTS`),
 * then a provider payment with the method saved, keyed by the Payment's id. Settled only on the
 * provider's verified word (`settlePayment`), which puts the saved method on and refunds it.
 */
export async function startMethodUpdate(
  context: InvoicePaymentContext,
  at: MethodUpdateAddress & { readonly method: string },
): Promise<Result<StartedMethodUpdate, KopekError>> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const loaded = await load(context, at);
    if (loaded.isErr()) return err(loaded.error);
    const page = pageOf(context, loaded.value, at);
    if (page.state !== "open") return ok({ kind: "not_open", page });
    const offered = page.methods.find((m) => m.method === at.method);
    if (offered === undefined)
      return err({ code: "method_unavailable", detail: `no ${at.method} method can be saved here` });
    const { subscription, project } = loaded.value;
    const update = loaded.value.update as MethodUpdate;
    const number = update.attempts + 1;
    const now = context.clock.now();
    if (offered.verification === null) {
      const save: MethodSave = {
        id: context.ids.newId(),
        method: offered.method,
        ref: null,
        state: "pending",
        startedAt: now,
      };
      const withSave: Subscription = {
        ...subscription,
        methodUpdate: { ...update, attempts: number, saves: [...update.saves, save] },
        version: subscription.version + 1,
      };
      const stored = await context.storage.saveSubscription(withSave, [], []);
      if (stored.isErr() && stored.error.code !== "conflict") return err(fromStorageError(stored.error));
      if (stored.isErr()) continue;
      const url = await startSave(context, project, withSave, save);
      return url.map((to) => ({ kind: "confirm_save", url: to, save }));
    }
    const subject = subscriptionPaymentSubject(subscription, {
      provider: project.provider.kind,
      providerPaymentId: null,
      cycle: currentCycle(subscription),
      kind: "verification",
      amount: offered.verification,
      method: offered.method,
      attempt: number,
    });
    const payment = newPayment(subject, { status: "pending" }, context.ids.newId(), now);
    const bumped: Subscription = {
      ...subscription,
      methodUpdate: { ...update, attempts: number },
      version: subscription.version + 1,
    };
    const saved = await context.storage.saveSubscription(bumped, [], [payment]);
    if (saved.isErr() && saved.error.code !== "conflict") return err(fromStorageError(saved.error));
    if (saved.isErr()) continue;
    return confirm(context, project, bumped, payment);
  }
  return err({
    code: "internal_error",
    cause: new Error("startMethodUpdate: the subscription kept changing"),
  });
}

/**
 * Asks the provider for the attempt's verification payment (made now, or the one its key made before)
 * and settles on its answer. An attempt whose answer never came is found by its key by the reconciler.
 */
async function confirm(
  context: InvoicePaymentContext,
  project: Project,
  subscription: Subscription,
  payment: Payment,
): Promise<Result<StartedMethodUpdate, KopekError>> {
  const update = subscription.methodUpdate;
  const updateId = update?.id ?? "";
  const returnPath = methodUpdateReturnPath(project.id, subscription.id, updateId, payment.id);
  const confirmed = await paymentToConfirm(context, project, payment, {
    paymentId: payment.id,
    money: payment.amount,
    method: payment.method,
    description: "Verification of a new payment method, refunded at once",
    receipt: oneItemReceipt(subscription.receipt, payment.amount),
    returnUrl: `${context.publicUrl()}${returnPath}`,
    notificationUrl: providerNotificationUrl(context.publicUrl(), project.id, project.provider.kind),
    idempotencyKey: verificationKey(payment.id),
    saveMethod: true,
    ...(update === null ? {} : { expiresAt: update.expiresAt }),
  });
  return confirmed.map(({ url, payment: settled }) => ({ kind: "confirm", url, payment: settled }));
}

/**
 * The payer came back from the provider: it is asked how the verification payment stands and Kopek
 * settles on that answer (which puts the method on and refunds it). The payment, and the page after.
 */
export async function checkMethodUpdate(
  context: InvoicePaymentContext,
  at: MethodUpdateAddress & { readonly paymentId: string },
): Promise<Result<{ readonly payment: Payment; readonly page: MethodUpdatePage }, KopekError>> {
  const loaded = await load(context, at);
  if (loaded.isErr()) return err(loaded.error);
  const found = await context.storage.findPayment(at.projectId, at.paymentId);
  if (found.isErr()) return err(fromStorageError(found.error));
  let payment = found.value;
  if (payment === null || payment.kind !== "verification" || payment.subscriptionId !== at.subscriptionId)
    return err({ code: "not_found" });
  if (payment.status === "pending" && payment.providerPaymentId !== null) {
    const answer = await context.providerFor(loaded.value.project).getPayment(payment.providerPaymentId);
    if (answer.isOk()) {
      const settled = await settlePayment(context, payment, answer.value);
      if (settled.isErr()) return err(settled.error);
      payment = settled.value;
    }
  }
  const page = await methodUpdatePage(context, at);
  return page.map((shown) => ({ payment: payment as Payment, page: shown }));
}

/**
 * The payer came back from a save with no payment (API.md 11.5): the provider is asked how it stands
 * and Kopek acts on that answer (a method saved goes on). The save as it stands then (found on the
 * subscription's newest link: a newer link keeps the pending saves of the one it replaced), and the page.
 */
export async function checkMethodSave(
  context: InvoicePaymentContext,
  at: MethodUpdateAddress & { readonly saveId: string },
): Promise<Result<{ readonly state: MethodSave["state"]; readonly page: MethodUpdatePage }, KopekError>> {
  const loaded = await load(context, at);
  if (loaded.isErr()) return err(loaded.error);
  const { subscription, project } = loaded.value;
  const save = subscription.methodUpdate?.saves.find((s) => s.id === at.saveId);
  if (save === undefined) return err({ code: "not_found" });
  const state = await askAboutSave(context, project, subscription, save);
  if (state.isErr()) return err(state.error);
  const page = await methodUpdatePage(context, at);
  return page.map((shown) => ({ state: state.value, page: shown }));
}

/** The method-update page's steps (API.md 11.5), for a server to render: no API key, the link is the capability. */
export interface MethodUpdatePages {
  /** What the page shows; `not_found` for an unknown subscription. */
  page(at: MethodUpdateAddress): Promise<Result<MethodUpdatePage, KopekError>>;
  /** The payer chose a method: a verification payment at the provider, and where to confirm it. */
  start(
    at: MethodUpdateAddress & { readonly method: string },
  ): Promise<Result<StartedMethodUpdate, KopekError>>;
  /** The payer came back: the provider is asked and Kopek settles on its answer. */
  check(
    at: MethodUpdateAddress & { readonly paymentId: string },
  ): Promise<Result<{ readonly payment: Payment; readonly page: MethodUpdatePage }, KopekError>>;
  /** The payer came back from a save with no payment: the provider is asked and Kopek acts on its answer. */
  checkSave(
    at: MethodUpdateAddress & { readonly saveId: string },
  ): Promise<Result<{ readonly state: MethodSave["state"]; readonly page: MethodUpdatePage }, KopekError>>;
}

export function methodUpdatePages(context: InvoicePaymentContext): MethodUpdatePages {
  return {
    page: (at) => methodUpdatePage(context, at),
    start: (at) => startMethodUpdate(context, at),
    check: (at) => checkMethodUpdate(context, at),
    checkSave: (at) => checkMethodSave(context, at),
  };
}
