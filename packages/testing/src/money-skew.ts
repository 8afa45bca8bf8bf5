import type { AmountMismatch, Money, OnAmountMismatch, ProviderError } from "@kopek/core";
import type { ResultAsync } from "neverthrow";

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

/**
 * A harness's part in the amount rule: the provider's answers misstated while `skew` is set
 * (`word`, `found`), and what Kopek's `onAmountMismatch` was told.
 */
export function createMoneySkew() {
  let skew: MoneySkew | null = null;
  const mismatches: AmountMismatch[] = [];
  const onAmountMismatch: OnAmountMismatch = (mismatch) => {
    mismatches.push(mismatch);
  };
  return {
    set: (next: MoneySkew | null) => {
      skew = next;
    },
    word: <T extends { readonly money: Money | null }>(answer: ResultAsync<T, ProviderError>) =>
      answer.map((value) => misstated(value, skew)),
    /** A lookup's answer: the payment misstated, or null as it was. */
    found: <T extends { readonly money: Money | null }>(answer: ResultAsync<T | null, ProviderError>) =>
      answer.map((value) => (value === null ? null : misstated(value, skew))),
    onAmountMismatch,
    mismatches: (): readonly AmountMismatch[] => [...mismatches],
  };
}
