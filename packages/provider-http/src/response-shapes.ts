import type { ChargeReceipt, PaymentLink, StoredMethodDescription } from "@kopek/core";

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

export function asReceipt(body: unknown): ChargeReceipt | null {
  if (!isObject(body) || typeof body.chargeId !== "string" || body.chargeId === "") return null;
  const chargedAt = new Date(typeof body.chargedAt === "string" ? body.chargedAt : Number.NaN);
  if (Number.isNaN(chargedAt.getTime())) return null;
  return { chargeId: body.chargeId, chargedAt };
}

export function asPaymentLink(body: unknown): PaymentLink | null {
  if (!isObject(body) || typeof body.url !== "string") return null;
  return /^https?:$/.test(URL.parse(body.url)?.protocol ?? "") ? { url: body.url } : null;
}
