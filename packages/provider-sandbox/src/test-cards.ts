import type { StoredMethodDescription, StoredMethodLookup } from "@kopek/core";
import { sha256Hex } from "@kopek/core";

/** A ref starting with this is declined when charged (API.md 7). */
export const SANDBOX_DECLINE_PREFIX = "sandbox_decline";
/**
 * A ref `sandbox_decline_charge_<n>_…` (e.g. `sandbox_decline_charge_3_abc`) declines only the n-th
 * charge attempt made with it and approves every other, so a test can make exactly one renewal fail
 * and then recover (API.md 7). It takes precedence over `SANDBOX_DECLINE_PREFIX`.
 */
export const SANDBOX_DECLINE_CHARGE_PREFIX = "sandbox_decline_charge_";
/**
 * A ref starting with this is charged `pending` first and succeeds when the provider is next asked
 * about the charge (`getPayment`), so the pending paths of API.md 10.5 can be tested end to end.
 */
export const SANDBOX_PENDING_PREFIX = "sandbox_pending";
/** A ref starting with this is charged `pending` first and declined when next asked about. */
export const SANDBOX_PENDING_DECLINE_PREFIX = "sandbox_pending_decline";
/**
 * A charge of a ref starting with this succeeds, and every refund of it is refused (answered
 * `canceled`), so a refused refund can be tested end to end (API.md 10.6).
 */
export const SANDBOX_REFUND_FAIL_PREFIX = "sandbox_refund_fail";
/**
 * A charge of a ref starting with this succeeds, and every refund of it is answered `pending` first
 * and succeeds when the provider is next asked about it (`getRefund`).
 */
export const SANDBOX_REFUND_PENDING_PREFIX = "sandbox_refund_pending";

/**
 * A charge of a ref starting with this succeeds, and the answer to each refund of it is lost: the
 * refund is made, the call that made it answers as an outage, and the same key asked again answers
 * the refund (a retry or reconciliation must never refund twice).
 */
export const SANDBOX_REFUND_LOST_ANSWER_PREFIX = "sandbox_refund_lost_answer";
/**
 * A ref starting with this is charged, but the answer to the call that made the charge is lost
 * (answered as an outage); the same idempotency key again answers the charge as it stands, so the
 * paths of a lost answer (API.md 10.1, docs/reliability.md) can be tested end to end.
 */
export const SANDBOX_LOST_ANSWER_PREFIX = "sandbox_lost_answer";

export type RefundBehaviour = "fail" | "pending" | "lost_answer";

/** How the sandbox answers refunds of a charge made with `ref`: normally, refused, pending first, or with the answer lost. */
export function refundBehaviourOf(ref: string): RefundBehaviour | null {
  if (ref.startsWith(SANDBOX_REFUND_FAIL_PREFIX)) return "fail";
  if (ref.startsWith(SANDBOX_REFUND_PENDING_PREFIX)) return "pending";
  if (ref.startsWith(SANDBOX_REFUND_LOST_ANSWER_PREFIX)) return "lost_answer";
  return null;
}
/** A ref starting with this simulates an outage on every call (API.md 7). */
export const SANDBOX_UNAVAILABLE_PREFIX = "sandbox_unavailable";

const DECLINE_CHARGE = /^sandbox_decline_charge_([1-9][0-9]{0,8})_/;

/** The attempt a `sandbox_decline_charge_<n>_…` ref declines (n), or null for any other ref. */
export function declinedAttemptOf(ref: string): number | null {
  const match = DECLINE_CHARGE.exec(ref);
  return match === null ? null : Number(match[1]);
}

// Real issuer prefixes (Mir, Visa, Mastercard) so masks look like the ones users will see in production.
const TEST_BINS = ["220070", "220220", "427600", "411111", "510510", "546955"] as const;
const CARD_LENGTH = 16;

/**
 * The fingerprint the sandbox keeps instead of a method ref: sha256, so its books can be read
 * and logged without exposing a token.
 */
export function sandboxMethodFingerprint(ref: string): string {
  return sha256Hex(ref);
}

/** The test card or masked phone the sandbox pretends a ref stands for: the same ref, the same method. */
export function describeTestMethod({ ref, method }: StoredMethodLookup): StoredMethodDescription {
  const digest = sha256Hex(`sandbox-method:${ref}`);
  const lastFour = String(Number.parseInt(digest.slice(8, 16), 16) % 10_000).padStart(4, "0");
  switch (method) {
    case "card": {
      const bin = TEST_BINS[Number.parseInt(digest.slice(0, 8), 16) % TEST_BINS.length] ?? TEST_BINS[0];
      return { kind: "card", first6: bin, last4: lastFour, length: CARD_LENGTH };
    }
    case "sbp":
      return { kind: "masked", mask: `SBP *${lastFour}` };
  }
}
