import type { PaymentProvider } from "@kopek/core";
import { ResultAsync } from "neverthrow";
import type { KopekMetrics } from "./kopek-metrics.js";

// The port's calls that reach the provider (each answers a ResultAsync); the rest are local.
const CALLS = [
  "describeStoredMethod",
  "chargeStoredMethod",
  "createPaymentLink",
  "createPayment",
  "getPayment",
  "cancelPayment",
  "refundPayment",
  "getRefund",
] as const satisfies readonly (keyof PaymentProvider)[];

/**
 * The provider with every call to it timed and counted in `metrics` (`kopek_provider_call_duration_seconds`),
 * by the provider's kind, the operation and its outcome: `ok`, or the error's code (`declined`,
 * `unavailable`, `failed`). Answers pass through unchanged.
 */
export function observedProvider(
  provider: PaymentProvider,
  kind: string,
  metrics: KopekMetrics,
): PaymentProvider {
  const observed: Record<string, unknown> = {};
  for (const operation of CALLS) {
    const call = provider[operation] as (...args: unknown[]) => ResultAsync<unknown, { code: string }>;
    observed[operation] = (...args: unknown[]) => {
      const started = performance.now();
      return new ResultAsync(
        Promise.resolve(call.apply(provider, args)).then((result) => {
          const outcome = result.isOk() ? "ok" : result.error.code;
          metrics.providerCall(kind, operation, outcome, (performance.now() - started) / 1000);
          return result;
        }),
      );
    };
  }
  return { ...provider, ...observed } as PaymentProvider;
}
