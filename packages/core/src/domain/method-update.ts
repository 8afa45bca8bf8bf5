import type { PaymentMethod } from "./payment-method.js";

/**
 * A payer's link to put a new payment method on a subscription (API.md 11.5), the newest one asked:
 * `POST /v1/subscriptions/{id}/method-update` makes it, `/method/{projectId}/{subscriptionId}/{id}`
 * shows it. Each method the payer chooses there is a verification Payment (kind `verification`) made
 * with the method saved and refunded at once; the first whose provider word is `succeeded` with a saved
 * method puts that method on the subscription. Where the provider saves a method with no payment
 * (`PaymentProvider.methodSaves`), each choice is a `MethodSave` instead, and no money moves.
 */
export interface MethodUpdate {
  readonly id: string;
  readonly createdAt: Date;
  /** 24 hours after it was made: the page then takes no new attempt. */
  readonly expiresAt: Date;
  /**
   * Verification payments and saves made through it: bumped with the version that stores each, so two
   * tabs never both make one past `MAX_METHOD_UPDATE_ATTEMPTS`.
   */
  readonly attempts: number;
  /** The verification Payment or the save whose method was put on; null while none was. */
  readonly completedBy: string | null;
  /** When that method was put on; null while none was. */
  readonly completedAt: Date | null;
  /** The saves with no payment started through it, oldest first (at most `MAX_METHOD_UPDATE_ATTEMPTS`). */
  readonly saves: readonly MethodSave[];
}

/**
 * A payer's method saved at the provider with no payment (API.md 11.5). `pending` from when the payer
 * chose the method until the provider's word: `saved` (its method was put on the subscription, or a
 * method was on already) or `failed` (declined, abandoned, or never started at the provider) — final.
 */
export interface MethodSave {
  /** Kopek's id of the save: it keys the provider's call and names the save in the payer's return URL. */
  readonly id: string;
  readonly method: PaymentMethod;
  /** The provider's name of the save (`StartedMethodSave.saveRef`); null until its answer is stored. */
  readonly ref: string | null;
  readonly state: "pending" | "saved" | "failed";
  readonly startedAt: Date;
}

/**
 * How long a save's ref may stay unknown before it is taken as never started: the provider's answer was
 * lost, and the payer, who never got its page, can only choose again.
 */
export const METHOD_SAVE_UNANSWERED_MS = 10 * 60_000;

/** How long a method-update link can be used (API.md 11.5). */
export const METHOD_UPDATE_TTL_MS = 24 * 60 * 60_000;

/**
 * How many verification payments one link makes, all methods together: past it a payer (or a bot)
 * declining again and again makes no more Payments, refunds or provider calls. A new link starts anew.
 */
export const MAX_METHOD_UPDATE_ATTEMPTS = 10;

/**
 * The amount of a verification payment, in minor units, when the provider names none for the method
 * (`ProviderCapabilities.verificationAmount`): one rouble (YooKassa's smallest bank-card payment).
 */
export const DEFAULT_VERIFICATION_AMOUNT = "100";

/** The smallest charge a provider takes for `method` (minor units), as its capabilities say. */
export function verificationAmountOf(
  amounts: Readonly<Partial<Record<string, string>>> | undefined,
  method: string,
): string {
  return amounts?.[method] ?? DEFAULT_VERIFICATION_AMOUNT;
}

/**
 * The link with its pending save `saveId` made final (`saved` or `failed`, its ref dropped: it may name
 * the method's token, kept only while needed); null when it holds no pending save of that id.
 */
export function withFinalSave(
  update: MethodUpdate | null,
  saveId: string,
  state: "saved" | "failed",
): MethodUpdate | null {
  if (update === null || !update.saves.some((s) => s.id === saveId && s.state === "pending")) return null;
  return {
    ...update,
    saves: update.saves.map((s) => (s.id === saveId ? { ...s, state, ref: null } : s)),
  };
}
