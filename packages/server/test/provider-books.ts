import type { TBankEmulator } from "@kopek/provider-tbank/emulator";
import type { YooKassaEmulator } from "@kopek/provider-yookassa/emulator";
import type { Json, ProviderServer } from "./provider-server.js";
import { minorOf } from "./providers-under-test.js";

/** Books as compared after a fault: the amounts (minor units) of the payments that went through, and of the refunds. */
export interface Books {
  readonly charges: string[];
  readonly refunds: string[];
}

/** Kopek's books: every succeeded payment's and refund's amount, read over the API. */
export async function kopekBooks(s: ProviderServer): Promise<Books> {
  const payments = (await s.get("/v1/payments?limit=100")).data as Json[];
  const refunds = (await s.get("/v1/refunds?limit=100")).data as Json[];
  return {
    charges: payments.filter((p) => p.status === "succeeded").map((p) => p.amount.amount),
    refunds: refunds.filter((r) => r.status === "succeeded").map((r) => r.amount.amount),
  };
}

/**
 * The YooKassa emulator's books: payments Kopek made (they carry its id in their metadata; a seeded
 * binding payment does not) that succeeded, and succeeded refunds.
 */
export function yooKassaBooks(emulator: YooKassaEmulator): Books {
  return {
    charges: [...emulator.books.payments.values()]
      .map((p) => p as Json)
      .filter((p) => p.status === "succeeded" && p.metadata?.kopekPaymentId !== undefined)
      .map((p) => minorOf(p.amount.value)),
    refunds: [...emulator.books.refunds.values()]
      .map((r) => r as Json)
      .filter((r) => r.status === "succeeded")
      .map((r) => minorOf(r.amount.value)),
  };
}

/** The T-Bank emulator's books: paid payments (a paid payment stays paid through its refunds), and refunds. */
export function tbankBooks(emulator: TBankEmulator): Books {
  return {
    charges: [...emulator.books.payments.values()]
      .filter((p) => ["CONFIRMED", "PARTIAL_REFUNDED", "REFUNDED"].includes(p.Status))
      .map((p) => String(p.Amount)),
    refunds: emulator.books.refunds.map((r) => String(r.Amount)),
  };
}
