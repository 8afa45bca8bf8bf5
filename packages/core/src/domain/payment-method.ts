/** Payment methods a request may name (API.md 5.3, 5.4). */
export const PAYMENT_METHODS = ["card", "sbp"] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];
