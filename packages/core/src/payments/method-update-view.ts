import { err, ok, type Result } from "neverthrow";
import type { KopekError } from "../domain/errors.js";
import { generatedSubscriptionDescription } from "../domain/generated-descriptions.js";
import {
  MAX_METHOD_UPDATE_ATTEMPTS,
  type MethodUpdate,
  verificationAmountOf,
} from "../domain/method-update.js";
import type { Money, PaymentMethod, Period, Subscription } from "../domain/model.js";
import type { Project, SellerDetails } from "../domain/project.js";
import { chargeableLater } from "../ports/payment-provider.js";
import { fromStorageError } from "../use-cases/execution.js";
import type { InvoicePaymentContext } from "./invoice-payments.js";

// What a payer's method-update link shows (API.md 11.5): read from the subscription, never written here.

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
  /** Whether `description` is the one Kopek made (`1499.00 RUB every month`): shown in the payer's language. */
  readonly generatedDescription: boolean;
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
  /** The seller's details the project sets, shown to the payer; null when none is set. */
  readonly seller: SellerDetails | null;
}

/** Which link a page request names: its project, subscription and id, as its URL says. */
export interface MethodUpdateAddress {
  readonly projectId: string;
  readonly subscriptionId: string;
  readonly updateId: string;
}

export interface LoadedMethodUpdate {
  readonly subscription: Subscription;
  readonly project: Project;
  /** The link, or null when the subscription's link is another (a newer one) or none. */
  readonly update: MethodUpdate | null;
}

export async function loadMethodUpdate(
  context: InvoicePaymentContext,
  at: MethodUpdateAddress,
): Promise<Result<LoadedMethodUpdate, KopekError>> {
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

function stateOf({ subscription, update }: LoadedMethodUpdate, now: Date): MethodUpdatePage["state"] {
  if (update === null) return "expired";
  if (update.completedBy !== null) return "completed";
  if (subscription.status === "canceled" || subscription.status === "incomplete") return "closed";
  if (update.expiresAt.getTime() <= now.getTime()) return "expired";
  return update.attempts >= MAX_METHOD_UPDATE_ATTEMPTS ? "attempts_exhausted" : "open";
}

export function methodUpdatePageOf(
  context: InvoicePaymentContext,
  loaded: LoadedMethodUpdate,
  at: MethodUpdateAddress,
): MethodUpdatePage {
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
    generatedDescription:
      subscription.description === generatedSubscriptionDescription(subscription.amount, subscription.period),
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
    seller: project.seller ?? null,
  };
}

/** GET /method/{projectId}/{subscriptionId}/{id}: the page; `not_found` for an unknown subscription. */
export async function methodUpdatePage(
  context: InvoicePaymentContext,
  at: MethodUpdateAddress,
): Promise<Result<MethodUpdatePage, KopekError>> {
  return (await loadMethodUpdate(context, at)).map((loaded) => methodUpdatePageOf(context, loaded, at));
}
