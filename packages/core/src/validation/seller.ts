import { MAX_EMAIL_LENGTH, MAX_RETURN_URL_LENGTH } from "../domain/limits.js";
import type { SellerDetails } from "../domain/project.js";
import { printableTextProblem } from "./display-name.js";

// The rules of a project's seller details (domain/project.ts `SellerDetails`), one place for the
// projects file and the command line. Each answers why a value cannot be the field, or null.

const INN_10 = [2, 4, 10, 3, 5, 9, 4, 6, 8];
const INN_11 = [7, 2, 4, 10, 3, 5, 9, 4, 6, 8];
const INN_12 = [3, 7, 2, 4, 10, 3, 5, 9, 4, 6, 8];

const checkDigit = (digits: readonly number[], weights: readonly number[]) =>
  (weights.reduce((sum, weight, i) => sum + weight * (digits[i] ?? 0), 0) % 11) % 10;

/**
 * Why `inn` is not an ИНН: 10 digits with the organisation's check digit, or 12 with a person's two
 * (the Federal Tax Service's algorithm, the weights above); null when it is one.
 */
export function innProblem(inn: string): string | null {
  if (!/^(\d{10}|\d{12})$/.test(inn)) return "must be 10 digits (an organisation) or 12 (a person)";
  const d = [...inn].map(Number);
  const valid =
    inn.length === 10
      ? checkDigit(d, INN_10) === d[9]
      : checkDigit(d, INN_11) === d[10] && checkDigit(d, INN_12) === d[11];
  return valid ? null : "has a wrong check digit: not an ИНН";
}

const EMAIL = /^[^\s@<>"]{1,64}@[^\s@<>"]+\.[^\s@<>"]+$/;
const PHONE = /^\+\d{10,15}$/;

/** Why `value` cannot be the seller's `field`, or null. Strings are taken as given (the caller trims). */
export function sellerFieldProblem(field: keyof SellerDetails, value: string): string | null {
  switch (field) {
    case "legalName": {
      if ([...value].length > 200 || value.trim() === "") return "must be 1-200 characters, not only spaces";
      return printableTextProblem(value);
    }
    case "inn":
      return innProblem(value);
    case "email":
      return value.length <= MAX_EMAIL_LENGTH && EMAIL.test(value) ? null : "must be an e-mail address";
    case "phone":
      return PHONE.test(value) ? null : "must be + and 10 to 15 digits, as +79991234567";
    case "offerUrl":
    case "privacyUrl":
      // As long as a return URL may be (the same browsers follow both).
      return URL.parse(value)?.protocol === "https:" && value.length <= MAX_RETURN_URL_LENGTH
        ? null
        : "must be an https:// URL";
  }
}

/** The fields of `SellerDetails`, in the order pages show them. */
export const SELLER_FIELDS = ["legalName", "inn", "email", "phone", "offerUrl", "privacyUrl"] as const;
