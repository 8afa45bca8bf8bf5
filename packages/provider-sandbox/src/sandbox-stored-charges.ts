import { randomUUID } from "node:crypto";
import type { Clock, Money, ProviderError, ProviderPayment, StoredMethodCharge } from "@kopek/core";
import { err, ok, type Result } from "neverthrow";
import { booksOf, chargeParameters, type SandboxLedger } from "./ledger.js";
import { rememberOutcome } from "./provider-idempotency.js";
import {
  declinedAttemptOf,
  refundBehaviourOf,
  SANDBOX_DECLINE_PREFIX,
  SANDBOX_LOST_ANSWER_PREFIX,
  SANDBOX_PENDING_DECLINE_PREFIX,
  SANDBOX_PENDING_PREFIX,
  SANDBOX_UNAVAILABLE_PREFIX,
  sandboxMethodFingerprint,
} from "./test-cards.js";

const OUTAGE: ProviderError = { code: "unavailable", message: "the sandbox simulates an outage" };
const LOST_ANSWER: ProviderError = {
  code: "unavailable",
  message: "the sandbox made the charge and simulates its answer lost",
};

/**
 * Charges of stored methods, as a real provider answers them: succeeded (booked), canceled (a
 * decline, booked nowhere: no money moved) or pending — `sandbox_pending_…` refs are decided on the
 * next `getPayment`, succeeded, and `sandbox_pending_decline_…` refs then declined. A key answers
 * how its charge stands now, never a second charge.
 */
export function createStoredCharges(ledger: SandboxLedger, clock: Clock) {
  const books = booksOf(ledger);

  function charge(request: StoredMethodCharge): Result<ProviderPayment, ProviderError> {
    const { ref, method, money, description, receipt, idempotencyKey } = request;
    if (ref.startsWith(SANDBOX_UNAVAILABLE_PREFIX)) return err(OUTAGE);
    const methodFingerprint = sandboxMethodFingerprint(ref);
    const parameters = chargeParameters({ method, money, methodFingerprint });
    books.sync();
    let madeNow = false;
    const decided = rememberOutcome(books.chargeOutcomes, idempotencyKey, parameters, () => {
      madeNow = true;
      // randomUUID draws its randomness in batches; randomBytes(12) paid a full RNG call (~3 µs) per charge.
      const chargeId = `ch_${randomUUID().replaceAll("-", "")}`;
      // Named fields, not a spread of the request: frozen, a spread object got a hidden class of its own.
      const entry = Object.freeze({
        chargeId,
        chargedAt: clock.now(),
        idempotencyKey,
        method,
        money: { amount: money.amount, currency: money.currency },
        description,
        receipt,
        methodFingerprint,
      });
      const refunds = refundBehaviourOf(ref);
      if (refunds !== null) books.refundBehaviours.set(chargeId, refunds);
      if (ref.startsWith(SANDBOX_PENDING_PREFIX)) {
        const decline = ref.startsWith(SANDBOX_PENDING_DECLINE_PREFIX);
        books.pendingCharges.set(chargeId, { entry, decline });
      } else if (isDeclined(ref, methodFingerprint)) {
        books.declinedCharges.set(chargeId, entry.money);
      } else {
        books.record(entry);
      }
      return ok(chargeId);
    });
    if (decided.isErr()) return err(decided.error);
    // The charge is made; only the answer to the call that made it is lost (a repeated key is answered).
    if (madeNow && ref.startsWith(SANDBOX_LOST_ANSWER_PREFIX)) return err(LOST_ANSWER);
    return ok(chargeState(decided.value) ?? declined(decided.value, money));
  }

  // Only calls that decide count as attempts: a replayed key is answered as its charge stands.
  function isDeclined(ref: string, methodFingerprint: string): boolean {
    const declinedAttempt = declinedAttemptOf(ref);
    if (declinedAttempt === null) return ref.startsWith(SANDBOX_DECLINE_PREFIX);
    const attempt = (books.chargeAttempts.get(methodFingerprint) ?? 0) + 1;
    books.chargeAttempts.set(methodFingerprint, attempt);
    return attempt === declinedAttempt;
  }

  /** How a charge stands now, without deciding anything; undefined when the sandbox made no such charge. */
  function chargeState(chargeId: string): ProviderPayment | undefined {
    const pending = books.pendingCharges.get(chargeId);
    if (pending !== undefined) return state(chargeId, "pending", pending.entry.money);
    const declinedMoney = books.declinedCharges.get(chargeId);
    if (declinedMoney !== undefined) return declined(chargeId, declinedMoney);
    books.sync();
    const booked = books.chargesById.get(chargeId);
    return booked === undefined ? undefined : state(chargeId, "succeeded", booked.money);
  }

  /** `getPayment` of a charge: a pending one is decided now, as the sandbox's pending refs promise. */
  function checkCharge(chargeId: string): ProviderPayment | undefined {
    const pending = books.pendingCharges.get(chargeId);
    if (pending !== undefined) {
      books.pendingCharges.delete(chargeId);
      if (pending.decline) books.declinedCharges.set(chargeId, pending.entry.money);
      else books.record(pending.entry);
    }
    return chargeState(chargeId);
  }

  /** The charge made with this key as it stands now, without deciding it; null when none was made. */
  function chargeMadeWith(idempotencyKey: string): ProviderPayment | null {
    books.sync();
    const remembered = books.chargeOutcomes.get(idempotencyKey);
    if (remembered === undefined || remembered.outcome.isErr()) return null;
    const chargeId = remembered.outcome.value;
    // Declined in another process (declines are not in the ledger file): its money is not known here.
    return chargeState(chargeId) ?? declined(chargeId, null);
  }

  return { charge, chargeState, checkCharge, chargeMadeWith };
}

function state(providerPaymentId: string, status: "pending" | "succeeded", money: Money): ProviderPayment {
  return { providerPaymentId, status, failureCode: null, methodMask: null, savedMethod: null, money };
}

function declined(providerPaymentId: string, money: Money | null): ProviderPayment {
  return {
    providerPaymentId,
    status: "canceled",
    failureCode: "payment_declined",
    methodMask: null,
    savedMethod: null,
    money,
  };
}

export type StoredCharges = ReturnType<typeof createStoredCharges>;
