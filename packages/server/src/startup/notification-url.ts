import type { ProviderSettings } from "@kopek/core";

/**
 * Whether the operator must give the provider Kopek's notification URL (API.md 10.4): a real
 * provider is told once, in its dashboard. The sandbox runs inside Kopek, and the HTTP protocol sends
 * the URL with each payment, so neither needs it.
 */
export function needsNotificationUrl(settings: ProviderSettings): boolean {
  switch (settings.kind) {
    case "yookassa":
    case "tbank":
      return true;
    case "sandbox":
    case "http":
      return false;
  }
}
