import { checkReceipt } from "./emulator-receipt.js";

// Request checks of the emulated POST /payments and POST /refunds, each answering YooKassa's documented
// 400 body { type: "error", id, code: "invalid_request", description, parameter } (…/response-handling/http-codes).

export interface Invalid {
  readonly parameter: string;
  readonly description: string;
}

export interface PaymentCreation {
  readonly amount: { readonly value: string; readonly currency: string };
  readonly capture: boolean;
  readonly description: string | null;
  readonly metadata: Readonly<Record<string, string>>;
  readonly returnUrl: string | null;
  readonly methodType: string | null;
  readonly paymentMethodId: string | null;
  readonly savePaymentMethod: boolean;
  /** The 54-FZ receipt as received (checked by `checkReceipt`), or null without one. */
  readonly receipt: Record<string, unknown> | null;
}

export interface RefundCreation {
  readonly paymentId: string;
  readonly amount: { readonly value: string; readonly currency: string };
  readonly description: string | null;
  /** The refund's 54-FZ receipt as received (checked by `checkReceipt` against the refund's amount), or null. */
  readonly receipt: Record<string, unknown> | null;
}

const METHOD_TYPES = ["bank_card", "sbp"];
export const DESCRIPTION_MAX = 128;
export const REFUND_DESCRIPTION_MAX = 250;
const RETURN_URL_MAX = 2048;

type Body = Record<string, unknown>;
const isObject = (value: unknown): value is Body =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const invalid = (parameter: string, description: string): Invalid => ({ parameter, description });

/** YooKassa's amount: a positive decimal string with at most two fraction digits, in RUB. */
export function checkAmount(
  value: unknown,
  parameter = "amount",
): Invalid | { value: string; currency: string } {
  if (!isObject(value)) return invalid(parameter, "Amount is required");
  const { value: amount, currency } = value;
  if (typeof amount !== "string" || !/^[0-9]+(\.[0-9]{1,2})?$/.test(amount) || !/[1-9]/.test(amount)) {
    return invalid(
      `${parameter}.value`,
      "Amount value must be a positive decimal with at most 2 digits after the point",
    );
  }
  if (currency !== "RUB") return invalid(`${parameter}.currency`, "Currency is not supported by the shop");
  return { value: amount, currency };
}

export function checkPaymentCreation(body: unknown): Invalid | PaymentCreation {
  if (!isObject(body)) return invalid("body", "Request body must be a JSON object");
  const amount = checkAmount(body.amount);
  if ("parameter" in amount) return amount;
  const { description, metadata = {}, capture = false, save_payment_method: save = false } = body;
  const descriptionProblem = checkDescription(description, DESCRIPTION_MAX);
  if (descriptionProblem !== null) return descriptionProblem;
  if (typeof capture !== "boolean") return invalid("capture", "capture must be a boolean");
  if (typeof save !== "boolean")
    return invalid("save_payment_method", "save_payment_method must be a boolean");
  const metadataProblem = checkMetadata(metadata);
  if (metadataProblem !== null) return metadataProblem;
  const methodId = body.payment_method_id;
  if (methodId !== undefined && typeof methodId !== "string")
    return invalid("payment_method_id", "Must be a string");
  const methodData = body.payment_method_data;
  let methodType: string | null = null;
  if (methodData !== undefined) {
    if (
      !isObject(methodData) ||
      typeof methodData.type !== "string" ||
      !METHOD_TYPES.includes(methodData.type)
    ) {
      return invalid("payment_method_data.type", "Payment method type is not supported");
    }
    methodType = methodData.type;
  }
  let returnUrl: string | null = null;
  if (body.confirmation !== undefined) {
    const confirmation = body.confirmation;
    if (!isObject(confirmation) || confirmation.type !== "redirect") {
      return invalid("confirmation.type", "The emulator supports confirmation type redirect only");
    }
    if (typeof confirmation.return_url !== "string" || !/^https?:\/\//.test(confirmation.return_url)) {
      return invalid("confirmation.return_url", "return_url is required for confirmation type redirect");
    }
    // ReturnUrl: "Не более 2048 символов".
    if (confirmation.return_url.length > RETURN_URL_MAX) {
      return invalid("confirmation.return_url", `return_url holds at most ${RETURN_URL_MAX} characters`);
    }
    returnUrl = confirmation.return_url;
  }
  // …/manual-integration/other/sbp: "two-stage payments are unavailable" for SBP.
  if (methodType === "sbp" && !capture)
    return invalid("capture", "Two-stage payments are unavailable for sbp");
  if (methodId === undefined && returnUrl === null) {
    return invalid("confirmation", "confirmation is required unless payment_method_id is given");
  }
  const receipt = body.receipt === undefined ? null : checkReceipt(body.receipt, amount.value);
  if (receipt !== null && "parameter" in receipt) return receipt;
  return {
    amount,
    capture,
    description: typeof description === "string" ? description : null,
    metadata: metadata as Record<string, string>,
    returnUrl,
    methodType,
    paymentMethodId: methodId ?? null,
    savePaymentMethod: save,
    receipt: receipt?.receipt ?? null,
  };
}

/**
 * A description of at most `max` characters ("не более 128 символов", OpenAPI `maxLength`). Characters are
 * counted the strictest way they may be: UTF-16 code units, as JavaScript's `length` (an emoji is two), so
 * a text the emulator takes is within the limit however YooKassa counts.
 */
function checkDescription(description: unknown, max: number): Invalid | null {
  if (description === undefined) return null;
  if (typeof description === "string" && description.length <= max) return null;
  return invalid("description", `Description must be a string of at most ${max} characters`);
}

// Metadata (…/developers/api, Metadata): at most 16 keys, a key's name at most 32 characters, a value at
// most 512, strings (null allowed: "nullable"). Lengths in UTF-16 code units, the strictest count.
export const METADATA_MAX_KEYS = 16;
export const METADATA_KEY_MAX = 32;
export const METADATA_VALUE_MAX = 512;

function checkMetadata(metadata: unknown): Invalid | null {
  if (!isObject(metadata)) return invalid("metadata", "metadata must be an object");
  const entries = Object.entries(metadata);
  if (entries.length > METADATA_MAX_KEYS)
    return invalid("metadata", `metadata holds at most ${METADATA_MAX_KEYS} keys`);
  for (const [key, value] of entries) {
    if (key.length > METADATA_KEY_MAX)
      return invalid("metadata", `metadata keys hold at most ${METADATA_KEY_MAX} characters`);
    if (value !== null && (typeof value !== "string" || value.length > METADATA_VALUE_MAX))
      return invalid(`metadata.${key}`, `values are strings of at most ${METADATA_VALUE_MAX} characters`);
  }
  return null;
}

/** The body of POST /payments/{id}/capture: an optional `amount` (a part of the payment's), or null. */
export function checkCapture(body: unknown): Invalid | { value: string; currency: string } | null {
  if (body !== null && body !== undefined && !isObject(body))
    return invalid("body", "Request body must be a JSON object");
  const amount = isObject(body) ? body.amount : undefined;
  return amount === undefined ? null : checkAmount(amount);
}

export function checkRefundCreation(body: unknown): Invalid | RefundCreation {
  if (!isObject(body)) return invalid("body", "Request body must be a JSON object");
  if (typeof body.payment_id !== "string" || body.payment_id === "")
    return invalid("payment_id", "payment_id is required");
  const amount = checkAmount(body.amount);
  if ("parameter" in amount) return amount;
  const { description } = body;
  const descriptionProblem = checkDescription(description, REFUND_DESCRIPTION_MAX);
  if (descriptionProblem !== null) return descriptionProblem;
  // The items of a refund's receipt are the goods returned: they come to the refund's amount, as a
  // payment's come to the payment's (the partial-refund example of
  // yookassa.ru/developers/payment-acceptance/receipts/54fz/yoomoney/refunds: 2 × 250.00 + 100.00 = 600.00).
  const receipt = body.receipt === undefined ? null : checkReceipt(body.receipt, amount.value);
  if (receipt !== null && "parameter" in receipt) return receipt;
  return {
    paymentId: body.payment_id,
    amount,
    description: typeof description === "string" ? description : null,
    receipt: receipt?.receipt ?? null,
  };
}

/** The body of POST /payment_methods the emulator takes: a bank card the payer enters on the save page. */
export interface MethodSaveCreation {
  readonly returnUrl: string;
  readonly metadata: Readonly<Record<string, string | null>> | null;
}

const LOCALES = ["ru_RU", "en_US"];

/**
 * POST /payment_methods (SavePaymentMethodDataBankCard: `type`, `holder`, `client_ip`, `confirmation`
 * redirect with `return_url` ≤ 2048 and optional `enforce`, `locale`; `metadata`). A `card` (the PCI DSS
 * scenario) and `sbp` (not testable in YooKassa's test shop either) are refused: the emulator serves the
 * scenario with the card entered on YooKassa's page.
 */
export function checkMethodSaveCreation(body: unknown): Invalid | MethodSaveCreation {
  if (!isObject(body)) return invalid("body", "Request body must be a JSON object");
  if (body.type === undefined) return invalid("type", "type is required");
  if (body.type !== "bank_card") return invalid("type", "The emulator saves bank_card payment methods only");
  if (body.card !== undefined) return invalid("card", "The emulator takes no card data: the payer enters it");
  const { holder, client_ip: clientIp, confirmation, metadata } = body;
  if (holder !== undefined && (!isObject(holder) || typeof holder.gateway_id !== "string"))
    return invalid("holder.gateway_id", "holder.gateway_id must be a string");
  if (clientIp !== undefined && typeof clientIp !== "string") return invalid("client_ip", "Must be a string");
  if (!isObject(confirmation)) return invalid("confirmation", "confirmation is required without card data");
  if (confirmation.type !== "redirect")
    return invalid("confirmation.type", "Only confirmation type redirect is available for bank_card");
  const returnUrl = confirmation.return_url;
  if (typeof returnUrl !== "string" || !/^https?:\/\//.test(returnUrl))
    return invalid("confirmation.return_url", "return_url is required for confirmation type redirect");
  if (returnUrl.length > RETURN_URL_MAX)
    return invalid("confirmation.return_url", `return_url holds at most ${RETURN_URL_MAX} characters`);
  if (confirmation.enforce !== undefined && typeof confirmation.enforce !== "boolean")
    return invalid("confirmation.enforce", "enforce must be a boolean");
  if (confirmation.locale !== undefined && !LOCALES.includes(String(confirmation.locale)))
    return invalid("confirmation.locale", "locale is ru_RU or en_US");
  const metadataProblem = metadata === undefined ? null : checkMetadata(metadata);
  if (metadataProblem !== null) return metadataProblem;
  return { returnUrl, metadata: (metadata as Record<string, string | null> | undefined) ?? null };
}

/** Exact major-unit arithmetic for the emulator: `"1499.00"` ↔ 149900n kopecks. */
export function kopecksOf(value: string): bigint {
  const [whole = "0", fraction = ""] = value.split(".");
  return BigInt(whole) * 100n + BigInt(fraction.padEnd(2, "0"));
}

export function majorValueOf(kopecks: bigint): string {
  const digits = kopecks.toString().padStart(3, "0");
  return `${digits.slice(0, -2)}.${digits.slice(-2)}`;
}
