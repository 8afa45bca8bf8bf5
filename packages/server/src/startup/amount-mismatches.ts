import type { OnAmountMismatch } from "@kopek/core";
import type { Logger } from "pino";
import type { KopekMetrics } from "../metrics/kopek-metrics.js";

/**
 * Core's `onAmountMismatch` (API.md 10.1): a provider's word for other money than Kopek asked for
 * settled nothing and left its payment or refund pending, for an operator. It goes to the log at
 * error level with both amounts (ids and money only: no token, no body) and is counted in
 * `kopek_provider_amount_mismatch_total`.
 */
export function reportAmountMismatches(logger: Logger, metrics?: KopekMetrics): OnAmountMismatch {
  return (mismatch) => {
    metrics?.amountMismatch(mismatch.provider, mismatch.kind);
    logger.error(
      { ...mismatch },
      `provider answered ${mismatch.status} for other money than Kopek asked: settled nothing, left pending for an operator`,
    );
  };
}
