import type { Money, PaymentMethod } from "@kopek/core";

/** One charge in the sandbox's books, as the ledger keeps it and its file stores it. */
export interface SandboxCharge {
  readonly chargeId: string;
  readonly idempotencyKey: string;
  readonly method: PaymentMethod;
  readonly money: Money;
  readonly description: string;
  readonly chargedAt: Date;
  /** sha256 of the method ref (`sandboxMethodFingerprint`). */
  readonly methodFingerprint: string;
}
