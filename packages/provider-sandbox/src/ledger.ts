import type { Money, PaymentMethod, ProviderRefund, Receipt } from "@kopek/core";
import { ok } from "neverthrow";
import { openLedgerFile } from "./ledger-file.js";
import type { RememberedOutcome } from "./provider-idempotency.js";
import type { SandboxCharge } from "./sandbox-charge.js";
import type { SandboxPayment } from "./sandbox-payment.js";
import type { RefundBehaviour } from "./test-cards.js";

/** One charge the sandbox made. Holds a fingerprint of the method ref, never the ref. */
export interface SandboxChargeFilter {
  readonly idempotencyKey?: string;
  readonly methodFingerprint?: string;
  readonly method?: PaymentMethod;
}

/** A refund in the sandbox's books: as the provider answers it, and the 54-FZ receipt it came with (null: none). */
export interface SandboxRefund extends ProviderRefund {
  readonly receipt: Receipt | null;
}

/** The sandbox's own books, as a real provider's dashboard would show them. Read-only. */
export interface SandboxLedger {
  /** Every charge made, oldest first. */
  charges(): readonly SandboxCharge[];
  /** How many charges match every given field of `filter` (all charges without one). */
  countCharges(filter?: SandboxChargeFilter): number;
  /**
   * Every payment made for a checkout (an invoice's), oldest first, as the sandbox received it (its
   * receipt too). In this process only.
   */
  payments(): readonly SandboxPayment[];
  /** Every refund made, oldest first, as it stands now, with the receipt it came with. In this process only. */
  refunds(): readonly SandboxRefund[];
}

/** The writable side of a ledger, reachable only by the sandbox provider. */
export interface SandboxBooks {
  readonly charges: SandboxCharge[];
  /** `charges` by their ids: the charges that moved money. */
  readonly chargesById: Map<string, SandboxCharge>;
  /**
   * Provider-side idempotency, key → charge id: shared by every provider on these books, like one
   * merchant account.
   */
  readonly chargeOutcomes: Map<string, RememberedOutcome<string>>;
  /** Charges not decided yet (`sandbox_pending_…` refs), booked or declined when next checked. In this process only. */
  readonly pendingCharges: Map<string, { readonly entry: SandboxCharge; readonly decline: boolean }>;
  /** Charges declined (no money moved), with the money they were asked for. In this process only. */
  readonly declinedCharges: Map<string, Money>;
  /** Refunds by the sandbox's id, and their keys. In this process only. */
  readonly refunds: Map<string, SandboxRefund>;
  readonly refundOutcomes: Map<string, RememberedOutcome<string>>;
  /**
   * Charges whose refunds are refused or pending first (`sandbox_refund_fail…`,
   * `sandbox_refund_pending…` refs), by charge id. In this process only.
   */
  readonly refundBehaviours: Map<string, RefundBehaviour>;
  /** Charge attempts decided so far, by method fingerprint (`sandbox_decline_charge_<n>_` refs). */
  readonly chargeAttempts: Map<string, number>;
  /**
   * Payments made for the checkout page, by the sandbox's id, and their keys. In this process only
   * (not in the ledger file): a payer's checkout must reach the process that made the payment.
   */
  readonly payments: Map<string, SandboxPayment>;
  readonly paymentOutcomes: Map<string, RememberedOutcome<string>>;
  /** Takes in the charges other processes wrote to the ledger file since the last call. */
  sync(): void;
  /** Books a new charge: appended to the ledger file first, when there is one. */
  record(charge: SandboxCharge): void;
}

export interface SandboxLedgerOptions {
  /**
   * Keep the charges in this append-only JSON-lines file as well (a testing aid): charges already
   * in it are loaded, so provider-side idempotency survives a restart, and several processes given
   * the same file see each other's charges. Created when missing.
   */
  readonly file?: string;
}

const booksByLedger = new WeakMap<SandboxLedger, SandboxBooks>();

/**
 * Empty books, or the books in `options.file`. Give the same ledger to several providers to have them
 * share one account.
 */
export function createSandboxLedger(options: SandboxLedgerOptions = {}): SandboxLedger {
  const file = options.file === undefined ? null : openLedgerFile(options.file);
  const charges: SandboxCharge[] = [];
  const chargesById = new Map<string, SandboxCharge>();
  const chargeOutcomes = new Map<string, RememberedOutcome<string>>();
  const sync = () => {
    for (const charge of file?.readNew() ?? []) {
      // Our own appends come back too; a key's first charge is the one that counts, as in memory.
      if (chargesById.has(charge.chargeId)) continue;
      chargesById.set(charge.chargeId, charge);
      charges.push(charge);
      if (!chargeOutcomes.has(charge.idempotencyKey)) {
        chargeOutcomes.set(charge.idempotencyKey, {
          parameters: chargeParameters(charge),
          outcome: ok(charge.chargeId),
        });
      }
    }
  };
  const books: SandboxBooks = {
    charges,
    chargesById,
    chargeOutcomes,
    pendingCharges: new Map(),
    declinedCharges: new Map(),
    refunds: new Map(),
    refundOutcomes: new Map(),
    refundBehaviours: new Map(),
    chargeAttempts: new Map(),
    payments: new Map(),
    paymentOutcomes: new Map(),
    sync,
    record(charge) {
      file?.append(charge);
      chargesById.set(charge.chargeId, charge);
      charges.push(charge);
    },
  };
  sync();
  const ledger: SandboxLedger = {
    charges() {
      sync();
      return [...charges];
    },
    countCharges(filter = {}) {
      sync();
      return charges.filter((charge) => matches(charge, filter)).length;
    },
    payments: () => [...books.payments.values()],
    refunds: () => [...books.refunds.values()],
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

/** What must match for a provider-side key to be replayed rather than refused as reused. */
export function chargeParameters(
  charge: Pick<SandboxCharge, "method" | "money" | "methodFingerprint">,
): string {
  return JSON.stringify([
    charge.method,
    charge.money.amount,
    charge.money.currency,
    charge.methodFingerprint,
  ]);
}
