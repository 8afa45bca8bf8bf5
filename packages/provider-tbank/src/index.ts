// @kopek/provider-tbank — Kopek's payment provider port over T-Bank (Tinkoff) acquiring API v2.

export { fromKopecks, MAX_KOPECKS, toKopecks } from "./amount.js";
export { readTBankNotification } from "./notification.js";
export { ORDER_ID_MAX_LENGTH, orderIdOf } from "./order-id.js";
export { cardOfPan, failureCodeOf, statusOf } from "./payment-mapping.js";
export { ENCODED_REF_PREFIX, encodedRefOf, parseStoredRef, storedRefOf } from "./stored-ref.js";
export { createTBankProvider, TBANK_API_URL, type TBankProviderOptions } from "./tbank-provider.js";
export { hasValidToken, signed, tokenOf } from "./token.js";
