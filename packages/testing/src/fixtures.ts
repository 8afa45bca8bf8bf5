import { randomUUID } from "node:crypto";
import {
  createUuidV7Generator,
  generateWebhookSecret,
  type Invoice,
  type Payment,
  type Project,
  type Receipt,
  type Refund,
  type Subscription,
  type WebhookEndpoint,
} from "@kopek/core";

// Dates carry a non-zero millisecond part so an adapter that truncates to seconds fails the contract.
const ANCHOR = Date.parse("2026-01-31T09:30:00.123Z");
const DAY_MS = 24 * 60 * 60 * 1000;

/** A valid project with a random id and the sandbox provider charging stored methods. */
export function sampleProject(overrides: Partial<Project> = {}): Project {
  const id = overrides.id ?? randomUUID();
  return {
    id,
    name: `shop-${id.slice(0, 8)}`,
    provider: { kind: "sandbox", storedMethodCharge: true },
    createdAt: new Date(ANCHOR - 30 * DAY_MS),
    ...overrides,
  };
}

/** A valid monthly card subscription of 1499.00 RUB in `projectId`, anchored on a month end. */
export function sampleSubscription(projectId: string, overrides: Partial<Subscription> = {}): Subscription {
  return {
    id: randomUUID(),
    projectId,
    status: "active",
    amount: { amount: "149900", currency: "RUB" },
    period: { unit: "month", count: 1 },
    method: "card",
    providerMethodRef: `pm_sandbox_${randomUUID()}`,
    methodMask: "2200 70** **** 1234",
    description: "1499.00 RUB every month",
    metadata: { plan: "pro", customerId: "cus_1001" },
    startedAt: new Date(ANCHOR),
    nextChargeAt: new Date("2026-02-28T09:30:00.123Z"),
    lastChargedAt: new Date(ANCHOR),
    cyclesStarted: 1,
    createdAt: new Date(ANCHOR),
    canceledAt: null,
    cancelReason: null,
    cancelAt: null,
    pauseAt: null,
    trialEnd: null,
    anchorAt: overrides.startedAt ?? new Date(ANCHOR),
    anchorPeriod: 0,
    nextCycle: 1,
    nextAttemptAt: new Date("2026-02-28T09:30:00.123Z"),
    declines: 0,
    firstDeclinedAt: null,
    invoiceId: null,
    receipt: null,
    customerId: null,
    methodUpdate: null,
    version: 1,
    ...overrides,
  };
}

/** A valid, unpaid invoice of 2500.00 USD in `projectId` with a customer and a return URL. */
export function sampleInvoice(projectId: string, overrides: Partial<Invoice> = {}): Invoice {
  const id = overrides.id ?? randomUUID();
  return {
    id,
    projectId,
    status: "created",
    amount: { amount: "250000", currency: "USD" },
    description: "Invoice for 2500.00 USD",
    comment: "Order A-1001",
    customer: { email: "buyer@example.com", phone: "+79991234567", externalId: null },
    metadata: { orderId: "A-1001" },
    paymentUrl: `https://pay.example.com/invoices/${id}`,
    returnUrl: "https://shop.example.com/thanks",
    allowedMethods: ["card", "sbp"],
    method: null,
    pinnedMethod: null,
    createdAt: new Date(ANCHOR),
    expiresAt: new Date(ANCHOR + DAY_MS),
    paidAt: null,
    canceledAt: null,
    savePaymentMethod: false,
    savedMethod: null,
    receipt: null,
    attempts: 0,
    customerId: null,
    version: 1,
    ...overrides,
  };
}

/**
 * A 54-FZ receipt of `amount` minor units in `currency`: one line of 3 units at a third of it, plus a
 * fractional line of 0.5 units at 2 minor units, so stored quantities keep their decimals.
 */
export function sampleReceipt(amount = "149901", currency = "RUB"): Receipt {
  const rest = BigInt(amount) - 1n;
  return {
    customer: { email: "buyer@example.com", phone: "+79991234567" },
    taxSystemCode: 2,
    items: [
      {
        description: "Подписка «Про» 🌍",
        quantity: "3.000",
        amount: { amount: (rest / 3n).toString(), currency },
        vatCode: 12,
        paymentSubject: "service",
        paymentMode: "full_prepayment",
      },
      {
        description: "Half a unit",
        quantity: "0.5",
        amount: { amount: "2", currency },
        vatCode: 1,
        paymentSubject: "commodity",
        paymentMode: "full_payment",
      },
    ],
  };
}

const paymentIds = createUuidV7Generator();

/**
 * A succeeded card payment of 2500.00 USD for an invoice (`invoiceId`, random by default), with a
 * UUIDv7 id so payments made one after another list newest first.
 */
export function samplePayment(projectId: string, overrides: Partial<Payment> = {}): Payment {
  const payment: Omit<Payment, "kind"> & Partial<Pick<Payment, "kind">> = {
    id: paymentIds.newId(),
    projectId,
    status: "succeeded",
    amount: { amount: "250000", currency: "USD" },
    amountRefunded: "0",
    method: "card",
    methodMask: "2200 70** **** 1234",
    invoiceId: randomUUID(),
    subscriptionId: null,
    cycle: null,
    provider: "sandbox",
    providerPaymentId: `pay_${randomUUID()}`,
    failureCode: null,
    createdAt: new Date(ANCHOR),
    succeededAt: new Date(ANCHOR + 1),
    canceledAt: null,
    nextCheckAt: null,
    attempt: 1,
    customerId: null,
    version: 1,
    ...overrides,
  };
  return { ...payment, kind: payment.kind ?? (payment.invoiceId === null ? "cycle" : "invoice") };
}

/**
 * A pending refund of 1000 minor units of `payment` (in its currency), first checked a year on, so
 * claims of other tests on a shared database never take it.
 */
export function sampleRefund(payment: Payment, overrides: Partial<Refund> = {}): Refund {
  return {
    id: paymentIds.newId(),
    projectId: payment.projectId,
    paymentId: payment.id,
    status: "pending",
    amount: { amount: "1000", currency: payment.amount.currency },
    reason: "returned goods",
    providerRefundId: null,
    createdAt: new Date(ANCHOR + 2),
    succeededAt: null,
    canceledAt: null,
    nextCheckAt: new Date(ANCHOR + 365 * DAY_MS),
    version: 1,
    ...overrides,
  };
}

const endpointIds = createUuidV7Generator();

/**
 * An enabled webhook endpoint of `projectId` taking every event type, with a fresh secret and a
 * random URL; `enabled: false` makes it disabled (with a time and a reason, as storage requires).
 */
export function sampleWebhookEndpoint(
  projectId: string,
  overrides: Partial<WebhookEndpoint> = {},
): WebhookEndpoint {
  const disabled = overrides.enabled === false;
  return {
    id: endpointIds.newId(),
    projectId,
    url: `https://merchant.example/hooks/${randomUUID()}`,
    secret: generateWebhookSecret(),
    previousSecret: null,
    previousSecretExpiresAt: null,
    eventTypes: null,
    description: null,
    enabled: true,
    createdAt: new Date(ANCHOR),
    disabledAt: disabled ? new Date(ANCHOR) : null,
    disabledReason: disabled ? "test" : null,
    lastSuccessAt: null,
    ...overrides,
  };
}
