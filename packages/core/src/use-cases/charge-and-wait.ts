import { ok, type Result } from "neverthrow";
import type { ProviderError, ProviderPayment, StoredMethodCharge } from "../ports/payment-provider.js";
import type { Execution } from "./execution.js";

/** Charges, then asks again while the provider says `pending`, for at most `pendingChargeWaitMs`. */
export async function chargeAndWait(
  execution: Execution,
  request: StoredMethodCharge,
): Promise<Result<ProviderPayment, ProviderError>> {
  const { provider } = execution;
  const charged = await provider.chargeStoredMethod(request);
  if (charged.isErr() || charged.value.status !== "pending") return charged;
  const deadline = Date.now() + execution.pendingChargeWaitMs;
  let pause = 200;
  let latest = charged.value;
  while (Date.now() + pause <= deadline) {
    await new Promise((resolve) => setTimeout(resolve, pause));
    pause = Math.min(pause * 2, 2_000);
    const asked = await provider.getPayment(latest.providerPaymentId);
    // No answer this time: still pending as far as Kopek knows; reconciliation asks later.
    if (asked.isErr()) continue;
    latest = asked.value;
    if (latest.status !== "pending") break;
  }
  return ok(latest);
}
