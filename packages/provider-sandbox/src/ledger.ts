import type { ChargeReceipt, Money, PaymentLink, PaymentMethod } from "@kopek/core";
import type { RememberedOutcome } from "./provider-idempotency.js";

/** One charge the sandbox made. Holds a fingerprint of the method ref, never the ref. */
export interface SandboxCharge {
  readonly chargeId: string;
  readonly idempotencyKey: string;
  readonly method: PaymentMethod;
  readonly money: Money;
  readonly description: string;
  readonly chargedAt: Date;
  /** sha256 of the method ref (`sandboxMethodFingerprint`). */
  readonly methodFingerprint: string;
}

export interface SandboxPaymentLink {
  readonly invoiceId: string;
  readonly idempotencyKey: string;
  readonly url: string;
  readonly money: Money;
  readonly methods: readonly PaymentMethod[];
  readonly expiresAt: Date;
}

export interface SandboxChargeFilter {
  readonly idempotencyKey?: string;
  readonly methodFingerprint?: string;
  readonly method?: PaymentMethod;
}

/** The sandbox's own books, as a real provider's dashboard would show them. Read-only. */
export interface SandboxLedger {
  /** Every charge made, oldest first. */
  charges(): readonly SandboxCharge[];
  /** Every payment link created, oldest first. */
  paymentLinks(): readonly SandboxPaymentLink[];
  /** How many charges match every given field of `filter` (all charges without one). */
  countCharges(filter?: SandboxChargeFilter): number;
}

/** The writable side of a ledger, reachable only by the sandbox provider. */
export interface SandboxBooks {
  readonly charges: SandboxCharge[];
  readonly paymentLinks: SandboxPaymentLink[];
  /** Provider-side idempotency: shared by every provider on these books, like one merchant account. */
  readonly chargeOutcomes: Map<string, RememberedOutcome<ChargeReceipt>>;
  readonly linkOutcomes: Map<string, RememberedOutcome<PaymentLink>>;
}

const booksByLedger = new WeakMap<SandboxLedger, SandboxBooks>();

/** Empty books. Give the same ledger to several providers to have them share one account. */
export function createSandboxLedger(): SandboxLedger {
  const books: SandboxBooks = {
    charges: [],
    paymentLinks: [],
    chargeOutcomes: new Map(),
    linkOutcomes: new Map(),
  };
  const ledger: SandboxLedger = {
    charges: () => [...books.charges],
    paymentLinks: () => [...books.paymentLinks],
    countCharges: (filter = {}) => books.charges.filter((charge) => matches(charge, filter)).length,
  };
  booksByLedger.set(ledger, books);
  return ledger;
}

/** The writable books behind a ledger made by `createSandboxLedger`. */
export function booksOf(ledger: SandboxLedger): SandboxBooks {
  const books = booksByLedger.get(ledger);
  if (books === undefined) throw new Error("sandbox: the ledger must come from createSandboxLedger()");
  return books;
}

function matches(charge: SandboxCharge, filter: SandboxChargeFilter): boolean {
  return (
    (filter.idempotencyKey === undefined || charge.idempotencyKey === filter.idempotencyKey) &&
    (filter.methodFingerprint === undefined || charge.methodFingerprint === filter.methodFingerprint) &&
    (filter.method === undefined || charge.method === filter.method)
  );
}
