import type { Kopek, KopekResponse, PaymentMethod } from "@kopek/core";

/** What paying through the provider needs of a harness: Kopek, and the payer's part at the provider. */
interface Payer {
  readonly kopek: Kopek;
  readonly provider: { confirm(providerPaymentId: string, decision: "succeed" | "decline"): void };
}

/** The request bodies the contract suite sends, and how it reads answers and pays invoices. */
export const subscriptionBody = (ref = "pm_contract_card") => ({
  amount: { amount: "149900", currency: "RUB" },
  period: { unit: "month", count: 1 },
  method: "card",
  providerMethodRef: ref,
});

export const invoiceBody = () => ({ amount: { amount: "149900", currency: "RUB" } });

/** 1499.00 RUB as two lines: 2 × 500.00 and 0.5 × 998.00, with only an email. */
export const receiptBody = () => ({
  customer: { email: "buyer@example.com" },
  taxSystemCode: 1,
  items: [
    {
      description: "Pro plan seat",
      quantity: "2",
      amount: { amount: "50000", currency: "RUB" },
      vatCode: 1,
      paymentSubject: "service",
      paymentMode: "full_payment",
    },
    {
      description: "Half a support hour",
      quantity: "0.5",
      amount: { amount: "99800", currency: "RUB" },
      vatCode: 4,
      paymentSubject: "service",
      paymentMode: "full_payment",
    },
  ],
});

export function json(response: KopekResponse): Record<string, unknown> {
  return JSON.parse(response.body) as Record<string, unknown>;
}

/**
 * A payer paying an invoice as the hosted page has them do it: a method chosen, the provider's
 * confirmation (`decision`), and the return that makes Kopek ask the provider. The checked payment and
 * invoice; a started payment of a closed invoice is an Error. `projectId`: the page's URL names the
 * invoice's project (null: a legacy link, by the invoice id alone).
 */
export async function payThroughProvider(
  h: Payer,
  invoiceId: string,
  method: PaymentMethod,
  decision: "succeed" | "decline" = "succeed",
  projectId: string | null = null,
) {
  const started = (await h.kopek.startPayment({ projectId, invoiceId, method }))._unsafeUnwrap();
  if (started.kind !== "confirm") throw new Error(`invoice ${invoiceId} is not payable`);
  h.provider.confirm(started.payment.providerPaymentId ?? "", decision);
  const check = { projectId, invoiceId, paymentId: started.payment.id };
  return (await h.kopek.checkPayment(check))._unsafeUnwrap();
}
