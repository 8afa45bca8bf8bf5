import {
  type CreatedPayment,
  type Money,
  PAYMENT_FAILURE_CODES,
  PAYMENT_STATUSES,
  type PaymentLink,
  type ProviderPayment,
  type ProviderRefund,
  type ProviderSavedMethod,
  type StoredMethodDescription,
} from "@kopek/core";

// What a 200 from the provider must hold. Anything else is a malformed answer: `failed`, never a guess.

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const isDigits = (value: unknown, length: number) =>
  typeof value === "string" && value.length === length && /^[0-9]+$/.test(value);

export function asDescription(body: unknown): StoredMethodDescription | null {
  if (!isObject(body)) return null;
  if (body.kind === "masked" && typeof body.mask === "string" && body.mask.length <= 64)
    return { kind: "masked", mask: body.mask };
  const { first6, last4, length } = body;
  if (body.kind !== "card" || !isDigits(first6, 6) || !isDigits(last4, 4)) return null;
  if (typeof length !== "number" || !Number.isInteger(length) || length < 13 || length > 19) return null;
  return { kind: "card", first6: first6 as string, last4: last4 as string, length };
}

export function asRefund(body: unknown): ProviderRefund | null {
  if (!isObject(body) || typeof body.providerRefundId !== "string" || body.providerRefundId === "")
    return null;
  if (typeof body.providerPaymentId !== "string") return null;
  const status = (["pending", "succeeded", "canceled"] as const).find((s) => s === body.status);
  const money = asMoney(body.money);
  if (status === undefined || money === null) return null;
  return {
    providerRefundId: body.providerRefundId,
    providerPaymentId: body.providerPaymentId,
    status,
    money,
  };
}

/** Money on the wire: `{ amount, currency }`, the amount in minor units; null when malformed. */
function asMoney(value: unknown): Money | null {
  if (!isObject(value)) return null;
  const { amount, currency } = value;
  if (typeof amount !== "string" || !/^[0-9]{1,18}$/.test(amount)) return null;
  if (typeof currency !== "string" || !/^[A-Z]{3}$/.test(currency)) return null;
  return { amount, currency };
}

export function asPaymentLink(body: unknown): PaymentLink | null {
  if (!isObject(body) || typeof body.url !== "string") return null;
  return /^https?:$/.test(URL.parse(body.url)?.protocol ?? "") ? { url: body.url } : null;
}

/** `findPaymentByKey`'s answer: the payment the key made, or null for none. */
export function asFoundPayment(body: unknown): { payment: ProviderPayment | null } | null {
  if (!isObject(body) || !("payment" in body)) return null;
  if (body.payment === null) return { payment: null };
  const payment = asProviderPayment(body.payment);
  return payment === null ? null : { payment };
}

export function asProviderPayment(body: unknown): ProviderPayment | null {
  if (!isObject(body) || typeof body.providerPaymentId !== "string" || body.providerPaymentId === "")
    return null;
  const status = PAYMENT_STATUSES.find((s) => s === body.status);
  const failureCode =
    body.failureCode === null ? null : PAYMENT_FAILURE_CODES.find((c) => c === body.failureCode);
  if (status === undefined || failureCode === undefined) return null;
  // A failure code exactly when canceled: anything else is not an answer to settle money on.
  if ((failureCode === null) !== (status !== "canceled")) return null;
  if (body.methodMask !== null && (typeof body.methodMask !== "string" || body.methodMask.length > 64))
    return null;
  const savedMethod = asSavedMethod(body.savedMethod);
  if (savedMethod === undefined) return null;
  // Required, null only when the service was not told: Kopek settles only on the money it asked for (API.md 10.1).
  const money = body.money === null ? null : asMoney(body.money);
  if (money === null && body.money !== null) return null;
  return {
    providerPaymentId: body.providerPaymentId,
    status,
    failureCode,
    methodMask: body.methodMask as string | null,
    savedMethod,
    money,
  };
}

/**
 * A saved method (API.md 10.5) as the service sends it: null when absent (a service older than saved
 * methods) or null; undefined when malformed.
 */
function asSavedMethod(value: unknown): ProviderSavedMethod | null | undefined {
  if (value === undefined || value === null) return null;
  if (!isObject(value) || typeof value.ref !== "string" || value.ref === "" || value.ref.length > 255)
    return undefined;
  const mask = value.methodMask;
  if (mask !== null && (typeof mask !== "string" || mask.length > 64)) return undefined;
  return { ref: value.ref, methodMask: mask };
}

export function asCreatedPayment(body: unknown): CreatedPayment | null {
  const payment = asProviderPayment(body);
  const url = isObject(body) ? body.confirmationUrl : undefined;
  if (payment === null || typeof url !== "string") return null;
  // An absolute http(s) URL, or a path on the server that serves the page (the sandbox's checkout).
  const absolute = /^https?:$/.test(URL.parse(url)?.protocol ?? "");
  return absolute || /^\/[^/\\]/.test(url) ? { ...payment, confirmationUrl: url } : null;
}
