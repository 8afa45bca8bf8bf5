import type { ProviderError } from "@kopek/core";

/**
 * The provider protocol: JSON over HTTP, one POST per port method, the body being the port's request
 * (dates as ISO 8601). Success is 200 with the port's result. A refusal is a non-2xx status with
 * `{ "error": { "code", "message" } }`: 402 declined, 503 unavailable, 422 failed.
 */
export const PATHS = {
  describe: "/v1/stored-methods/describe",
  charge: "/v1/charges",
  paymentLink: "/v1/payment-links",
  createPayment: "/v1/payments",
  /** Every payment answered carries `money` (required, null only when unknown): what it is for. */
  getPayment: "/v1/payments/get",
  /** `{ idempotencyKey, paymentId, createdAt }` → `{ payment: ProviderPayment | null }`. */
  findPaymentByKey: "/v1/payments/find-by-key",
  cancelPayment: "/v1/payments/cancel",
  refund: "/v1/refunds",
  getRefund: "/v1/refunds/get",
} as const;

export const STATUS_OF: Readonly<Record<ProviderError["code"], number>> = {
  declined: 402,
  unavailable: 503,
  failed: 422,
};

/** The code a provider's refusal stands for, by status when the body does not say. */
export function errorCodeOf(status: number, body: unknown): ProviderError["code"] {
  const code = (body as { error?: { code?: unknown } } | null)?.error?.code;
  if (code === "declined" || code === "unavailable" || code === "failed") return code;
  // Any 5xx is an unknown outcome (the operation may have happened): asked again later with the same
  // key, never treated as a refusal. A 4xx without a code is a refusal.
  return status >= 500 ? "unavailable" : "failed";
}

/** A refusal's message, kept short and never echoing what we sent. */
export function errorMessageOf(status: number, body: unknown): string {
  const message = (body as { error?: { message?: unknown } } | null)?.error?.message;
  return typeof message === "string" ? message.slice(0, 200) : `the provider answered ${status}`;
}

/**
 * A notification from the provider service to Kopek: `{ "event": "payment.updated", "providerPaymentId" }`,
 * answered 200 `OK`. It says which payment changed, never how: Kopek asks the service (`getPayment`).
 */
export function readWireNotification(body: string): { providerPaymentId: string } | null | "invalid" {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return "invalid";
  }
  const fields = parsed as { event?: unknown; providerPaymentId?: unknown } | null;
  if (typeof fields !== "object" || fields === null || typeof fields.event !== "string") return "invalid";
  if (fields.event !== "payment.updated") return null;
  const id = fields.providerPaymentId;
  return typeof id === "string" && id !== "" && id.length <= 200 ? { providerPaymentId: id } : "invalid";
}
