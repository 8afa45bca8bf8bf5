// cancellation_details of a canceled payment, as YooKassa documents it: `party` is yoo_money,
// payment_network or merchant, `reason` one of a closed list (yookassa.ru/developers/payments/declined-payments;
// the OpenAPI specification's PaymentCancellationDetails). The emulator cancels with these values only.

export type CancellationParty = "yoo_money" | "payment_network" | "merchant";

export const CANCELLATION_REASONS = [
  "3d_secure_failed",
  "call_issuer",
  "card_expired",
  "payment_method_limit_exceeded",
  "payment_method_restricted",
  "country_forbidden",
  "general_decline",
  "fraud_suspected",
  "identification_required",
  "insufficient_funds",
  "invalid_card_number",
  "invalid_csc",
  "issuer_unavailable",
  "canceled_by_merchant",
  "permission_revoked",
  "internal_timeout",
  "expired_on_confirmation",
  "expired_on_capture",
  "unsupported_mobile_operator",
  "deal_expired",
  "loan_declined",
] as const;

export type CancellationReason = (typeof CANCELLATION_REASONS)[number];

export const isCancellationReason = (reason: string): reason is CancellationReason =>
  (CANCELLATION_REASONS as readonly string[]).includes(reason);

// Who decides each reason: the merchant cancels through the API; YooKassa itself ("yoo_money") lets
// confirmations and captures expire, times out and stops suspected fraud; the issuer or another
// participant ("payment_network") declines the rest.
const DECIDED_BY_YOO_MONEY: ReadonlySet<CancellationReason> = new Set([
  "expired_on_confirmation",
  "expired_on_capture",
  "internal_timeout",
  "fraud_suspected",
  "deal_expired",
]);

export function partyOf(reason: CancellationReason): CancellationParty {
  if (reason === "canceled_by_merchant") return "merchant";
  return DECIDED_BY_YOO_MONEY.has(reason) ? "yoo_money" : "payment_network";
}
