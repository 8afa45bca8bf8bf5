// The provider port as /work/notes/port-spec.md says main will have it (issue 15 part 2). Until main has
// it, these are the shapes this adapter implements; when it lands, this file goes and @kopek/core's
// types take its place.
import type {
  Money,
  PaymentMethod,
  PaymentProvider,
  ProviderCapabilities,
  ProviderError,
  ProviderPayment,
  StoredMethodCharge,
} from "@kopek/core";
import type { ResultAsync } from "neverthrow";

export interface NextStoredMethodCharge extends StoredMethodCharge {
  readonly paymentId: string;
}

export interface CancelRequest {
  readonly providerPaymentId: string;
  readonly idempotencyKey: string;
}

export interface RefundRequest {
  readonly refundId: string;
  readonly providerPaymentId: string;
  readonly money: Money;
  readonly reason: string | null;
  readonly idempotencyKey: string;
}

export interface ProviderRefund {
  readonly providerRefundId: string;
  readonly providerPaymentId: string;
  readonly status: "pending" | "succeeded" | "canceled";
  readonly money: Money;
}

export interface NextProviderCapabilities extends ProviderCapabilities {
  readonly saveMethod: readonly PaymentMethod[];
  readonly receipts: boolean;
  readonly cancelPending: boolean;
}

export interface NextPaymentProvider extends Omit<PaymentProvider, "chargeStoredMethod" | "capabilities"> {
  readonly capabilities: NextProviderCapabilities;
  chargeStoredMethod(request: NextStoredMethodCharge): ResultAsync<ProviderPayment, ProviderError>;
  cancelPayment(request: CancelRequest): ResultAsync<ProviderPayment, ProviderError>;
  refundPayment(request: RefundRequest): ResultAsync<ProviderRefund, ProviderError>;
  getRefund(providerRefundId: string): ResultAsync<ProviderRefund, ProviderError>;
}
