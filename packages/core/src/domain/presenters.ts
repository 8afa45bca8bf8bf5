import {
  type CustomerRecord,
  type Invoice,
  type InvoiceStatus,
  MAX_INVOICE_ATTEMPTS,
  type Payment,
  type Receipt,
  type Refund,
  type Subscription,
} from "./model.js";

/** An invoice's status as read at `now`: unpaid past `expiresAt` it is expired at once, sweeper or not. */
export function invoiceStatusAt(invoice: Pick<Invoice, "status" | "expiresAt">, now: Date): InvoiceStatus {
  return invoice.status === "created" && invoice.expiresAt.getTime() <= now.getTime()
    ? "expired"
    : invoice.status;
}

/** The subscription as the API shows it (API.md 5.3): field order fixed, no method token. */
export function presentSubscription(s: Subscription) {
  return {
    id: s.id,
    status: s.status,
    amount: { amount: s.amount.amount, currency: s.amount.currency },
    period: { unit: s.period.unit, count: s.period.count },
    description: s.description,
    method: s.method,
    methodMask: s.methodMask,
    metadata: s.metadata,
    startedAt: s.startedAt.toISOString(),
    nextChargeAt: s.nextChargeAt.toISOString(),
    lastChargedAt: s.lastChargedAt === null ? null : s.lastChargedAt.toISOString(),
    cyclesStarted: s.cyclesStarted,
    createdAt: s.createdAt.toISOString(),
    canceledAt: s.canceledAt === null ? null : s.canceledAt.toISOString(),
    cancelReason: s.cancelReason,
    cancelAt: s.cancelAt === null ? null : s.cancelAt.toISOString(),
    cancelAtPeriodEnd: s.cancelAt !== null,
    pauseAt: s.pauseAt === null ? null : s.pauseAt.toISOString(),
    trialEnd: s.trialEnd === null ? null : s.trialEnd.toISOString(),
    receipt: presentReceipt(s.receipt),
    customerId: s.customerId,
  };
}

/** The invoice as the API shows it at `now` (API.md 5.4). */
export function presentInvoice(i: Invoice, now: Date) {
  return {
    id: i.id,
    status: invoiceStatusAt(i, now),
    amount: { amount: i.amount.amount, currency: i.amount.currency },
    description: i.description,
    comment: i.comment,
    customer: i.customer && {
      email: i.customer.email,
      phone: i.customer.phone,
      externalId: i.customer.externalId,
    },
    metadata: i.metadata,
    paymentUrl: i.paymentUrl,
    returnUrl: i.returnUrl,
    method: i.method,
    pinnedMethod: i.pinnedMethod,
    createdAt: i.createdAt.toISOString(),
    expiresAt: i.expiresAt.toISOString(),
    paidAt: i.paidAt === null ? null : i.paidAt.toISOString(),
    canceledAt: i.canceledAt === null ? null : i.canceledAt.toISOString(),
    // The method's token stays inside Kopek (API.md 10.5).
    savedMethod:
      i.savedMethod === null ? null : { method: i.savedMethod.method, methodMask: i.savedMethod.methodMask },
    receipt: presentReceipt(i.receipt),
    attempts: i.attempts,
    maxAttempts: MAX_INVOICE_ATTEMPTS,
    customerId: i.customerId,
  };
}

/** A 54-FZ receipt as the API shows it (API.md 10.7): field order fixed, every field present. */
export function presentReceipt(r: Receipt | null) {
  return (
    r && {
      customer: { email: r.customer.email, phone: r.customer.phone },
      taxSystemCode: r.taxSystemCode,
      items: r.items.map((item) => ({
        description: item.description,
        quantity: item.quantity,
        amount: { amount: item.amount.amount, currency: item.amount.currency },
        vatCode: item.vatCode,
        paymentSubject: item.paymentSubject,
        paymentMode: item.paymentMode,
      })),
    }
  );
}

/** The payment as the API shows it (API.md 10.2). */
export function presentPayment(p: Payment) {
  return {
    id: p.id,
    status: p.status,
    amount: { amount: p.amount.amount, currency: p.amount.currency },
    amountRefunded: { amount: p.amountRefunded, currency: p.amount.currency },
    method: p.method,
    methodMask: p.methodMask,
    invoiceId: p.invoiceId,
    subscriptionId: p.subscriptionId,
    cycle: p.cycle,
    kind: p.kind,
    provider: p.provider,
    providerPaymentId: p.providerPaymentId,
    failureCode: p.failureCode,
    createdAt: p.createdAt.toISOString(),
    succeededAt: p.succeededAt === null ? null : p.succeededAt.toISOString(),
    canceledAt: p.canceledAt === null ? null : p.canceledAt.toISOString(),
    customerId: p.customerId,
  };
}

/** A Refund as the API shows it (API.md 10.6). */
export function presentRefund(r: Refund) {
  return {
    id: r.id,
    paymentId: r.paymentId,
    status: r.status,
    amount: { amount: r.amount.amount, currency: r.amount.currency },
    reason: r.reason,
    createdAt: r.createdAt.toISOString(),
    succeededAt: r.succeededAt === null ? null : r.succeededAt.toISOString(),
  };
}

/** A customer as the API shows it (API.md 11.1): every field present, null when absent. */
export function presentCustomer(c: CustomerRecord) {
  return {
    id: c.id,
    email: c.email,
    phone: c.phone,
    name: c.name,
    externalId: c.externalId,
    metadata: c.metadata,
    createdAt: c.createdAt.toISOString(),
    erasedAt: c.erasedAt === null ? null : c.erasedAt.toISOString(),
  };
}

export type CustomerView = ReturnType<typeof presentCustomer>;
export type SubscriptionView = ReturnType<typeof presentSubscription>;
export type InvoiceView = ReturnType<typeof presentInvoice>;
export type PaymentView = ReturnType<typeof presentPayment>;
export type RefundView = ReturnType<typeof presentRefund>;
