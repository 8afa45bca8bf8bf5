import type { PaymentProvider } from "@kopek/core";
import { ResultAsync } from "neverthrow";
import type { KopekMetrics } from "./kopek-metrics.js";

// The port's calls that reach the provider: each answers a ResultAsync.
type Call = {
  [Name in keyof PaymentProvider]-?: PaymentProvider[Name] extends (
    ...args: never[]
  ) => ResultAsync<unknown, unknown>
    ? Name
    : never;
}[keyof PaymentProvider];

/**
 * The provider with every call to it timed and counted in `metrics` (`kopek_provider_call_duration_seconds`),
 * by the provider's kind, the operation and its outcome: `ok`, or the error's code (`declined`,
 * `unavailable`, `failed`). Answers pass through unchanged. Built member by member (no spread), so a
 * class-based adapter keeps its methods and a member added to the port must be named here.
 */
export function observedProvider(
  provider: PaymentProvider,
  kind: string,
  metrics: KopekMetrics,
): PaymentProvider {
  // Timed under `operation`: `call` run on `self` (its own object, for a class-based adapter).
  const observe = <F>(operation: string, self: object, call: F): F => {
    const observed = (...args: unknown[]) => {
      const started = performance.now();
      const answer = (call as (...a: unknown[]) => ResultAsync<unknown, { code: string }>).apply(self, args);
      return new ResultAsync(
        Promise.resolve(answer).then((result) => {
          const outcome = result.isOk() ? "ok" : result.error.code;
          metrics.providerCall(kind, operation, outcome, (performance.now() - started) / 1000);
          return result;
        }),
      );
    };
    return observed as unknown as F;
  };
  const timed = <Name extends Call>(operation: Name): PaymentProvider[Name] =>
    observe(operation, provider, provider[operation]);
  const saves = provider.methodSaves;
  return {
    ...(saves === undefined
      ? {}
      : {
          methodSaves: {
            methods: saves.methods,
            start: observe("startMethodSave", saves, saves.start),
            get: observe("getMethodSave", saves, saves.get),
          },
        }),
    capabilities: provider.capabilities,
    notificationAnswer: provider.notificationAnswer,
    readNotification: (notification) => provider.readNotification(notification),
    describeStoredMethod: timed("describeStoredMethod"),
    chargeStoredMethod: timed("chargeStoredMethod"),
    createPaymentLink: timed("createPaymentLink"),
    createPayment: timed("createPayment"),
    getPayment: timed("getPayment"),
    findPaymentByKey: timed("findPaymentByKey"),
    cancelPayment: timed("cancelPayment"),
    refundPayment: timed("refundPayment"),
    getRefund: timed("getRefund"),
  };
}
