// Text limits of YooKassa's requests (yookassa.ru/developers/api; its OpenAPI specification: a payment's
// Description has maxLength 128, "не более 128 символов"; a refund's description maxLength 250).
export const PAYMENT_DESCRIPTION_MAX = 128;
export const REFUND_DESCRIPTION_MAX = 250;

/**
 * At most `max` characters under the strictest count YooKassa's "не более 128 символов" may mean: UTF-16
 * code units (an emoji counts two), never cutting a character in half. Counted in code points (each
 * character once), the text is then within the limit too.
 */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  const last = cut.charCodeAt(cut.length - 1);
  // A high surrogate at the end is half of a character whose other half was cut off.
  return last >= 0xd800 && last <= 0xdbff ? cut.slice(0, -1) : cut;
}
