import { err, ok, type Result } from "neverthrow";
import type { KopekError } from "../domain/errors.js";
import type { Receipt } from "../domain/model.js";
import type { PaymentProvider } from "../ports/payment-provider.js";
import type { ReceiptRequest } from "../validation/schemas.js";

/**
 * The receipt a create request asked for (API.md 10.7), as it is stored and sent with every charge:
 * null without one; 422 `method_unavailable` when the project's provider cannot take receipts, checked
 * before anything is asked of the provider; likewise a taxSystemCode it does not take.
 */
export function receiptFor(
  provider: PaymentProvider,
  request: ReceiptRequest | null | undefined,
): Result<Receipt | null, KopekError> {
  if (request === undefined || request === null) return ok(null);
  if (!provider.capabilities.receipts) {
    return err({
      code: "method_unavailable",
      detail: "the project's payment provider cannot take 54-FZ receipts",
    });
  }
  const taxSystem = request.taxSystemCode;
  if (taxSystem != null && provider.capabilities.receiptTaxSystems?.includes(taxSystem) === false) {
    return err({
      code: "method_unavailable",
      detail: `the project's payment provider cannot take taxSystemCode ${taxSystem}`,
    });
  }
  return ok({
    customer: { email: request.customer.email ?? null, phone: request.customer.phone ?? null },
    taxSystemCode: request.taxSystemCode ?? null,
    items: request.items.map((item) => ({
      description: item.description,
      quantity: item.quantity,
      amount: { amount: item.amount.amount, currency: item.amount.currency },
      vatCode: item.vatCode,
      paymentSubject: item.paymentSubject,
      paymentMode: item.paymentMode,
    })),
  });
}
