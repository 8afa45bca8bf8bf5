import { err, ok, type Result } from "neverthrow";
import type { KopekError } from "../domain/errors.js";
import type { MethodSave, MethodUpdate } from "../domain/method-update.js";
import type { Payment, Subscription } from "../domain/model.js";
import type { Project } from "../domain/project.js";
import { oneItemReceipt } from "../domain/receipt.js";
import { fromStorageError } from "../use-cases/execution.js";
import { type InvoicePaymentContext, paymentToConfirm } from "./invoice-payments.js";
import { askAboutSave, startSave } from "./method-save.js";
import {
  loadMethodUpdate,
  type MethodUpdateAddress,
  type MethodUpdatePage,
  methodUpdatePage,
  methodUpdatePageOf,
} from "./method-update-view.js";
import { methodUpdateReturnPath } from "./page-paths.js";
import { newPayment, subscriptionPaymentSubject } from "./payment-records.js";
import { providerNotificationUrl } from "./provider-notifications.js";
import { settlePayment } from "./settle-payment.js";

export type { MethodUpdateAddress, MethodUpdatePage } from "./method-update-view.js";
export { methodUpdatePage } from "./method-update-view.js";

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

/** A verification payment's description at the provider, which its payer reads there (API.md 11.5). */
export const VERIFICATION_DESCRIPTION = "Проверка нового способа оплаты: сумма сразу вернётся";

/** The provider key of a verification payment: derived from its Payment alone, for reconciliation too. */
export function verificationKey(paymentId: string): string {
  return `kopek:verification:${paymentId}`;
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
    const loaded = await loadMethodUpdate(context, at);
    if (loaded.isErr()) return err(loaded.error);
    const page = methodUpdatePageOf(context, loaded.value, at);
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
    // Shown to the payer on the provider's page: in Russian, the language of the providers' payers (RUB).
    description: VERIFICATION_DESCRIPTION,
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
  const loaded = await loadMethodUpdate(context, at);
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
  const loaded = await loadMethodUpdate(context, at);
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
