import { err, type Result } from "neverthrow";
import type { Refund } from "../domain/model.js";
import type { Project } from "../domain/project.js";
import { type OnAmountMismatch, trustedRefundAnswer } from "../payments/amount-rule.js";
import type { Clock } from "../ports/clock.js";
import type { IdGenerator } from "../ports/id-generator.js";
import type { PaymentProvider, ProviderError, ProviderRefund } from "../ports/payment-provider.js";
import type { Storage } from "../ports/storage.js";
import { settleRefund, submitRefund } from "./settle-refund.js";

export interface RefundCheckOptions {
  readonly storage: Storage;
  readonly providerFor: (project: Project) => PaymentProvider;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  /** Refunds checked per claim. */
  readonly batchSize: number;
  /** How long a claimed refund is hidden from other reconcilers while it is checked. */
  readonly leaseMs: number;
  /** Told about every provider word refused for its amount or currency (API.md 10.1). */
  readonly onAmountMismatch?: OnAmountMismatch | undefined;
  readonly onError?: (cause: unknown) => void;
}

/**
 * Asks the provider about every refund still pending when its check is due (API.md 10.6: reconciled
 * like payments), with back-off until it is final. A refund the provider never answered for (no
 * provider id yet) is asked for again with its own key, which the provider answers with the same
 * refund: a refund whose first ask failed (an outage, a crash) is made exactly once. Claims are
 * leases in storage, so several reconcilers never check one refund at once.
 */
export async function checkDueRefunds(
  options: RefundCheckOptions,
): Promise<{ readonly claimed: number; readonly settled: number }> {
  const { storage, clock } = options;
  const now = clock.now();
  const claimed = await storage.claimRefundChecks({
    now,
    limit: options.batchSize,
    leaseExpiresAt: new Date(now.getTime() + options.leaseMs),
  });
  if (claimed.isErr()) throw claimed.error;
  let settled = 0;
  for (const refund of claimed.value) {
    try {
      if ((await checkRefund(options, refund)).status !== "pending") settled += 1;
    } catch (cause) {
      // One refund's failure does not stop the batch; its lease runs out and it is checked again.
      options.onError?.(cause);
    }
  }
  return { claimed: claimed.value.length, settled };
}

async function checkRefund(options: RefundCheckOptions, refund: Refund): Promise<Refund> {
  const { storage } = options;
  const [project, payment] = await Promise.all([
    storage.findProject(refund.projectId),
    storage.findPayment(refund.projectId, refund.paymentId),
  ]);
  if (project.isErr()) throw project.error;
  if (payment.isErr()) throw payment.error;
  const provider = project.value === null ? null : options.providerFor(project.value);
  const context = {
    storage,
    clock: options.clock,
    ids: options.ids,
    onAmountMismatch: options.onAmountMismatch,
  };
  let answer: Result<ProviderRefund, ProviderError>;
  if (provider === null || payment.value?.providerPaymentId == null) {
    answer = err({ code: "unavailable", message: "nothing to ask about this refund" });
  } else if (refund.providerRefundId === null) {
    // Asked again with its own key: the provider makes it now, or answers the one it made.
    return submitRefund({ ...context, provider }, refund, payment.value, "again");
  } else {
    const word = await provider.getRefund(refund.providerRefundId);
    answer = trustedRefundAnswer(refund, payment.value, word, options.onAmountMismatch);
  }
  // A failed look-up is no answer about the refund itself: asked again later.
  return settleRefund(context, refund, answer, "retry");
}
