import { err, ok, type Result } from "neverthrow";
import { isUuid } from "../crypto/uuid-v7.js";
import type { KopekError } from "../domain/errors.js";
import type { Payment } from "../domain/model.js";
import type { Project } from "../domain/project.js";
import type {
  NotificationAnswer,
  NotificationSubject,
  ProviderNotification,
} from "../ports/payment-provider.js";
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
 * notification (`bad_request`), a payment Kopek does not know (`not_found`; one named by Kopek's own
 * id that the provider's answer does not confirm, likewise). When the provider cannot
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
  const named = await paymentNamedBy(context, project, subject.value);
  if (named.isErr()) return err(named.error);
  if (named.value === null) return err({ code: "not_found" });
  const { payment, byKopekId } = named.value;
  const answer = await provider.getPayment(subject.value.providerPaymentId);
  if (answer.isErr()) return err(fromProviderError(answer.error));
  // Found by Kopek's id alone: the body could pair any payment with any Payment, so only the
  // provider's own answer may tie them (its id recorded on the Payment as it settles).
  if (byKopekId && answer.value.kopekPaymentId !== payment.id) return err({ code: "not_found" });
  const settled = await settlePayment(context, payment, answer.value);
  return settled.isErr() ? err(settled.error) : ok(provider.notificationAnswer);
}

/**
 * The project's Payment a notification names: by the provider's id, else — a charge whose answer has
 * not been recorded yet (it is on its way, or was lost) — by Kopek's own id the provider carried back,
 * if that Payment has no provider id yet and was made through this provider kind. Null: none.
 */
async function paymentNamedBy(
  context: NotificationContext,
  project: Project,
  subject: NotificationSubject,
): Promise<Result<{ readonly payment: Payment; readonly byKopekId: boolean } | null, KopekError>> {
  const byProviderId = await context.storage.findPaymentByProviderId(project.id, subject.providerPaymentId);
  if (byProviderId.isErr()) return err(fromStorageError(byProviderId.error));
  if (byProviderId.value !== null) return ok({ payment: byProviderId.value, byKopekId: false });
  const kopekId = subject.kopekPaymentId;
  if (kopekId === undefined || !isUuid(kopekId)) return ok(null);
  const byKopekId = await context.storage.findPayment(project.id, kopekId.toLowerCase());
  if (byKopekId.isErr()) return err(fromStorageError(byKopekId.error));
  const payment = byKopekId.value;
  if (payment === null || payment.providerPaymentId !== null || payment.provider !== project.provider.kind)
    return ok(null);
  return ok({ payment, byKopekId: true });
}
