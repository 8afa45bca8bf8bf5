import type { StoredMethodDescription } from "../ports/payment-provider.js";
import { formatCardMask } from "../validation/card-guard.js";

/** The mask a subscription shows for a described stored method (API.md 5.3). */
export function maskOf(description: StoredMethodDescription): string {
  return description.kind === "card" ? formatCardMask(description) : description.mask;
}
