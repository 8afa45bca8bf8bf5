// @kopek/provider-yookassa — Kopek's payment provider port over YooKassa API v3.

export { fromYooKassaAmount, toYooKassaAmount, type YooKassaAmount } from "./amount.js";
export { IDEMPOTENCE_KEY_MAX_LENGTH, idempotenceKeyOf } from "./idempotence-key.js";
export { isYooKassaAddress, sourceAddressOf, YOOKASSA_NOTIFICATION_NETWORKS } from "./notification.js";
export { ASSUMED_CARD_LENGTH, failureCodeOf } from "./payment-mapping.js";
export { createYooKassaProvider, type YooKassaProviderOptions } from "./yookassa-provider.js";
