import { err, ok, type Result } from "neverthrow";
import type { KopekError } from "../api/errors.js";
import { isUuid } from "../crypto/uuid-v7.js";
import type { NotificationAnswer, ProviderNotification } from "../ports/payment-provider.js";
import { fromProviderError, fromStorageError } from "../use-cases/execution.js";
import { type SettleContext, settlePayment } from "./settle-payment.js";

export interface ProviderNotificationRequest {
  /** From the notification URL: `/provider-events/{projectId}/{providerKind}`. */
  readonly projectId: string;
  readonly providerKind: string;
  readonly notification: ProviderNotification;
}

export type NotificationContext = SettleContext;

/** Where a project's provider posts its notifications: `POST /provider-events/{projectId}/{kind}`. */
export function providerNotificationUrl(publicUrl: string, projectId: string, kind: string): string {
  return `${publicUrl.replace(/\/+$/, "")}/provider-events/${projectId}/${kind}`;
}

/**
 * A provider's notification (API.md 10.4). The body only names the payment; its outcome is what the
 * provider answers when Kopek asks (`getPayment`), settled like a payer's return, so a forged body
 * changes nothing and a repeated one changes nothing twice. Refused, changing nothing: an unknown
 * project or a provider kind it does not use (`not_found`), a body that is not this provider's
 * notification (`bad_request`), a payment Kopek does not know (`not_found`). When the provider cannot
 * be asked, `provider_unavailable`: the provider retries its notification, and reconciliation would
 * settle the payment anyway.
 */
export async function handleProviderNotification(
  context: NotificationContext,
  request: ProviderNotificationRequest,
): Promise<Result<NotificationAnswer, KopekError>> {
  if (!isUuid(request.projectId)) return err({ code: "not_found" });
  const found = await context.storage.findProject(request.projectId.toLowerCase());
  if (found.isErr()) return err(fromStorageError(found.error));
  const project = found.value;
  if (project === null || project.provider.kind !== request.providerKind) return err({ code: "not_found" });
  const provider = context.providerFor(project);
  const subject = provider.readNotification(request.notification);
  if (subject.isErr()) return err({ code: "bad_request" });
  if (subject.value === null) return ok(provider.notificationAnswer);
  const payment = await context.storage.findPaymentByProviderId(project.id, subject.value.providerPaymentId);
  if (payment.isErr()) return err(fromStorageError(payment.error));
  if (payment.value === null) return err({ code: "not_found" });
  const answer = await provider.getPayment(subject.value.providerPaymentId);
  if (answer.isErr()) return err(fromProviderError(answer.error));
  const settled = await settlePayment(context, payment.value, answer.value);
  return settled.isErr() ? err(settled.error) : ok(provider.notificationAnswer);
}
