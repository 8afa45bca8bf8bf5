import type { NotificationSubject, ProviderError, ProviderNotification } from "@kopek/core";
import { err, ok, type Result } from "neverthrow";
import { bindingOrderIdOf, requestKeyOfOrder } from "./order-id.js";
import { bindingPaymentIdOf } from "./sbp-saving.js";
import { notificationSchema } from "./tbank-schemas.js";
import { hasValidToken } from "./token.js";

/**
 * Which payment a notification names, once its `Token` proves it came from T-Bank
 * (developer.tbank.ru/eacq/intro/developer/notification: the token is computed as a request's, over the
 * notification's root fields and the terminal's password). Only `PaymentId` is read: Kopek then asks
 * `GetState`. A notification about no payment (card or account binding) answers null.
 */
export function readTBankNotification(
  notification: ProviderNotification,
  terminalKey: string,
  password: string,
): Result<NotificationSubject | null, ProviderError> {
  let json: unknown;
  try {
    json = JSON.parse(notification.body);
  } catch {
    return err({ code: "failed", message: "not a T-Bank notification: the body is not JSON" });
  }
  if (typeof json !== "object" || json === null || Array.isArray(json))
    return err({ code: "failed", message: "not a T-Bank notification: the body is not an object" });
  const parsed = notificationSchema.safeParse(json);
  if (!parsed.success) return err({ code: "failed", message: "not a T-Bank notification" });
  if (parsed.data.TerminalKey !== terminalKey)
    return err({ code: "failed", message: "T-Bank notification for another terminal" });
  if (!hasValidToken(json as Record<string, unknown>, password))
    return err({
      code: "failed",
      message: "T-Bank notification with a wrong Token (forged or for another password)",
    });
  // A card binding's notification ([T] NotificationAddCard: a RequestKey with a CustomerKey, no
  // NotificationType; an SBP binding's NotificationQr is always LINKACCOUNT and has no CustomerKey) is about
  // nothing Kopek tracks: a save is read with GetAddCardState (card-binding.ts).
  const { RequestKey, CustomerKey, NotificationType } = parsed.data;
  if (RequestKey !== undefined && CustomerKey !== undefined && NotificationType !== "LINKACCOUNT")
    return ok(null);
  // A binding's payment is known to Kopek as `b1:<RequestKey>`: its own notifications (by OrderId) and
  // the binding's (by RequestKey) both name it.
  const bound = parsed.data.RequestKey === undefined ? null : bindingOrderIdOf(parsed.data.RequestKey);
  const requestKey = requestKeyOfOrder(parsed.data.OrderId) ?? requestKeyOfOrder(bound ?? undefined);
  if (requestKey !== null) return ok({ providerPaymentId: bindingPaymentIdOf(requestKey) });
  const paymentId = parsed.data.PaymentId;
  return ok(paymentId === undefined ? null : { providerPaymentId: paymentId });
}
