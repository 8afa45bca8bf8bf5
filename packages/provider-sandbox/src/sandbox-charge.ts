import type { Money, PaymentMethod, Receipt } from "@kopek/core";

/** One charge in the sandbox's books, as the ledger keeps it and its file stores it. */
export interface SandboxCharge {
  readonly chargeId: string;
  readonly idempotencyKey: string;
  readonly method: PaymentMethod;
  readonly money: Money;
  readonly description: string;
  /** The 54-FZ receipt the charge came with (API.md 10.7), as received; null without one. */
  readonly receipt: Receipt | null;
  readonly chargedAt: Date;
  /** sha256 of the method ref (`sandboxMethodFingerprint`). */
  readonly methodFingerprint: string;
}
