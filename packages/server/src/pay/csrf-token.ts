import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * The payment form's CSRF token: an HMAC of the invoice id under a per-server secret. Another site
 * cannot read the page, so it cannot know the token; the token of one invoice is useless for another.
 */
export function csrfToken(secret: Uint8Array, invoiceId: string): string {
  return createHmac("sha256", secret).update(`kopek-pay:${invoiceId}`).digest("base64url");
}

export function isValidCsrfToken(secret: Uint8Array, invoiceId: string, token: unknown): boolean {
  if (typeof token !== "string") return false;
  const expected = Buffer.from(csrfToken(secret, invoiceId));
  const given = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
