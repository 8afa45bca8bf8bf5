// @kopek/provider-sandbox — a payment provider that behaves like a real one, with no payment company behind it.

export {
  createSandboxLedger,
  type SandboxChargeFilter,
  type SandboxLedger,
  type SandboxLedgerOptions,
  type SandboxRefund,
} from "./ledger.js";
export type { SandboxCharge } from "./sandbox-charge.js";
export {
  createSandboxCheckout,
  SANDBOX_NOTIFICATION_EVENT,
  SANDBOX_SAVED_PREFIX,
  type SandboxCheckout,
  type SandboxDecision,
  type SandboxPayment,
  sandboxNotificationOf,
} from "./sandbox-payments.js";
export {
  createSandboxProvider,
  type SandboxProvider,
  type SandboxProviderOptions,
} from "./sandbox-provider.js";
export {
  declinedAttemptOf,
  describeTestMethod,
  SANDBOX_DECLINE_CHARGE_PREFIX,
  SANDBOX_DECLINE_PREFIX,
  SANDBOX_LOST_ANSWER_PREFIX,
  SANDBOX_PENDING_DECLINE_PREFIX,
  SANDBOX_PENDING_PREFIX,
  SANDBOX_REFUND_FAIL_PREFIX,
  SANDBOX_REFUND_LOST_ANSWER_PREFIX,
  SANDBOX_REFUND_PENDING_PREFIX,
  SANDBOX_UNAVAILABLE_PREFIX,
  sandboxMethodFingerprint,
} from "./test-cards.js";
