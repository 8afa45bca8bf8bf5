import { err, type Result } from "neverthrow";
import { createUuidV7Generator } from "../crypto/uuid-v7.js";
import type { KopekError } from "../domain/errors.js";
import type { Money, Refund } from "../domain/model.js";
import type { Project } from "../domain/project.js";
import type { OnAmountMismatch } from "../payments/amount-rule.js";
import { type Clock, systemClock } from "../ports/clock.js";
import type { IdGenerator } from "../ports/id-generator.js";
import type { PaymentProvider } from "../ports/payment-provider.js";
import type { Storage } from "../ports/storage.js";
import { fromStorageError } from "../use-cases/execution.js";
import { refundPayment } from "./refund-payment.js";

export interface OperatorRefundOptions {
  readonly storage: Storage;
  readonly providerFor: (project: Project) => PaymentProvider;
  readonly clock?: Clock;
  readonly ids?: IdGenerator;
  /** Told when the provider answers the refund for other money (API.md 10.1): it stays pending. */
  readonly onAmountMismatch?: OnAmountMismatch | undefined;
}

export interface OperatorRefundRequest {
  readonly projectId: string;
  readonly paymentId: string;
  /** Whole minor units in the payment's currency; null: all that remains refundable. */
  readonly amount: string | null;
  readonly reason: string | null;
}

/**
 * A refund an operator makes outside the API (`kopek refunds create`): the same rules, reservation,
 * provider call and events as `POST /v1/payments/{id}/refunds`, for a payment of the given project.
 */
export async function refundAsOperator(
  options: OperatorRefundOptions,
  request: OperatorRefundRequest,
): Promise<Result<Refund, KopekError>> {
  const { storage } = options;
  const clock = options.clock ?? systemClock;
  const ids = options.ids ?? createUuidV7Generator({ clock });
  const project = await storage.findProject(request.projectId);
  if (project.isErr()) return err(fromStorageError(project.error));
  if (project.value === null) return err({ code: "not_found" });
  const payment = await storage.findPayment(request.projectId, request.paymentId);
  if (payment.isErr()) return err(fromStorageError(payment.error));
  if (payment.value === null) return err({ code: "not_found" });
  const amount: Money | null =
    request.amount === null ? null : { amount: request.amount, currency: payment.value.amount.currency };
  return refundPayment(
    {
      storage,
      clock,
      ids,
      provider: options.providerFor(project.value),
      onAmountMismatch: options.onAmountMismatch,
    },
    { refundId: ids.newId(), payment: payment.value, amount, reason: request.reason },
  );
}
