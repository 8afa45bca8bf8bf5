import type { Money, PaymentMethod, ProviderPayment, Receipt } from "@kopek/core";

/** A payment waiting on the sandbox's checkout page, or decided there. */
export interface SandboxPayment {
  readonly providerPaymentId: string;
  /** Kopek's id of the payment. */
  readonly paymentId: string;
  readonly money: Money;
  readonly method: PaymentMethod;
  readonly description: string;
  /** The 54-FZ receipt the payment came with (API.md 10.7), as received; null without one. */
  readonly receipt: Receipt | null;
  readonly returnUrl: string;
  /** Where the sandbox notifies Kopek once the payer decided. */
  readonly notificationUrl: string;
  readonly status: ProviderPayment["status"];
  readonly failureCode: ProviderPayment["failureCode"];
  /** Whether Kopek asked to save the payer's method (`PaymentRequest.saveMethod`, API.md 10.5). */
  readonly saveMethod: boolean;
}
