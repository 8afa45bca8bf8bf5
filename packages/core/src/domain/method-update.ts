/**
 * A payer's link to put a new payment method on a subscription (API.md 11.5), the newest one asked:
 * `POST /v1/subscriptions/{id}/method-update` makes it, `/method/{projectId}/{subscriptionId}/{id}`
 * shows it. Each method the payer chooses there is a verification Payment (kind `verification`) made
 * with the method saved and refunded at once; the first whose provider word is `succeeded` with a saved
 * method puts that method on the subscription.
 */
export interface MethodUpdate {
  readonly id: string;
  readonly createdAt: Date;
  /** 24 hours after it was made: the page then takes no new attempt. */
  readonly expiresAt: Date;
  /**
   * Verification payments made through it: bumped with the version that stores each, so two tabs never
   * both make one past `MAX_METHOD_UPDATE_ATTEMPTS`.
   */
  readonly attempts: number;
  /** The verification Payment whose saved method was put on; null while none was. */
  readonly completedBy: string | null;
  /** When that method was put on; null while none was. */
  readonly completedAt: Date | null;
}

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
