import type { Money } from "../domain/model.js";

/**
 * How a test makes the provider misstate the money of its answers (API.md 10.1): `amount`, one minor
 * unit more than it was asked; `currency`, the same amount in another currency.
 */
export type MoneySkew = "amount" | "currency";

/** A provider's word with its money misstated as `skew` says; a word that names no money stays so. */
export function misstated<T extends { readonly money: Money | null }>(word: T, skew: MoneySkew | null): T {
  if (skew === null || word.money === null) return word;
  const { amount, currency } = word.money;
  const money: Money =
    skew === "amount"
      ? { amount: (BigInt(amount) + 1n).toString(), currency }
      : { amount, currency: currency === "RUB" ? "USD" : "RUB" };
  return { ...word, money };
}
