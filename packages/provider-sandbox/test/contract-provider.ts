import type { CountingProvider } from "@kopek/testing";
import { createSandboxCheckout, createSandboxProvider, sandboxNotificationOf } from "../src/index.js";

/**
 * The sandbox as the Kopek contract suite drives it (each storage adapter's kopek.test.ts): its
 * ledger counts the charges (and shows the receipts they came with), and its checkout plays the
 * payer's part at the provider.
 */
export function sandboxContractProvider(options: { storedMethodCharge: boolean }): CountingProvider {
  const sandbox = createSandboxProvider(options);
  const checkout = createSandboxCheckout(sandbox.ledger);
  return {
    ...sandbox,
    chargesMade: () => sandbox.ledger.charges().length,
    chargeIds: () => sandbox.ledger.charges().map((charge) => charge.chargeId),
    paymentIds: () => sandbox.ledger.payments().map((payment) => payment.providerPaymentId),
    refundsMade: () => sandbox.ledger.refunds().map(({ receipt: _receipt, ...refund }) => refund),
    chargeReceipts: () => sandbox.ledger.charges().map((charge) => charge.receipt),
    paymentReceipts: () => sandbox.ledger.payments().map((payment) => payment.receipt),
    refundReceipts: () => sandbox.ledger.refunds().map((refund) => refund.receipt),
    confirm: (id, decision) => void checkout.decide(id, decision),
    notificationOf: (id) => {
      const payment = checkout.find(id);
      return { headers: {}, body: payment === null ? "{}" : sandboxNotificationOf(payment).body };
    },
  };
}
