import { BlockList, isIP } from "node:net";
import type { NotificationSubject, ProviderError, ProviderNotification } from "@kopek/core";
import { err, ok, type Result } from "neverthrow";
import { z } from "zod";
import { notificationSchema } from "./yookassa-schemas.js";

/**
 * Where YooKassa sends notifications from, as yookassa.ru/developers/using-api/webhooks publishes it. The
 * official Python SDK's `security_helper.py` lists the same IPv4 ranges and four /64 networks inside
 * 2a02:5180::/32; the page's wider IPv6 range is kept, so a new YooKassa /64 is not refused.
 */
export const YOOKASSA_NOTIFICATION_NETWORKS: readonly string[] = [
  "185.71.76.0/27",
  "185.71.77.0/27",
  "77.75.153.0/25",
  "77.75.154.128/25",
  "77.75.156.11",
  "77.75.156.35",
  "2a02:5180::/32",
];

const networks = new BlockList();
for (const entry of YOOKASSA_NOTIFICATION_NETWORKS) {
  const [address = "", prefix] = entry.split("/");
  const family = isIP(address) === 6 ? "ipv6" : "ipv4";
  if (prefix === undefined) networks.addAddress(address, family);
  else networks.addSubnet(address, Number(prefix), family);
}

/** Whether `address` is one YooKassa publishes as a notification source. */
export function isYooKassaAddress(address: string): boolean {
  const plain = address.startsWith("::ffff:") && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
  const family = isIP(plain);
  if (family === 0) return false;
  return networks.check(plain, family === 6 ? "ipv6" : "ipv4");
}

/**
 * The source address as the operator's reverse proxy reports it: `X-Real-IP`, else the last (the proxy's
 * own, so not the sender's) entry of `X-Forwarded-For`. Kopek's server sees only the proxy's address
 * otherwise, so the check needs one of the two headers (README, "Notifications").
 */
export function sourceAddressOf(headers: ProviderNotification["headers"]): string | null {
  const first = (name: string) => {
    const value = headers[name];
    return typeof value === "string" ? value : value?.[value.length - 1];
  };
  const real = first("x-real-ip")?.trim();
  if (real) return real;
  const forwarded = first("x-forwarded-for")?.split(",").at(-1)?.trim();
  return forwarded ? forwarded : null;
}

const PAYMENT_EVENT = /^payment\./;

/**
 * Which payment a notification names. Only `object.id` and `object.metadata.kopekPaymentId` are read:
 * YooKassa does not sign notifications, so Kopek asks `GET /payments/{id}` for the outcome (and
 * whether the payment is the one that id names). Refund and other events: null (issue 16).
 */
export function readYooKassaNotification(
  notification: ProviderNotification,
  checkIp: boolean,
): Result<NotificationSubject | null, ProviderError> {
  if (checkIp) {
    const address = sourceAddressOf(notification.headers);
    if (address === null) {
      return err({ code: "failed", message: "YooKassa notification without X-Real-IP or X-Forwarded-For" });
    }
    if (!isYooKassaAddress(address)) {
      return err({ code: "failed", message: `notification from ${address}, not a YooKassa address` });
    }
  }
  let json: unknown;
  try {
    json = JSON.parse(notification.body);
  } catch {
    return err({ code: "failed", message: "not a YooKassa notification: the body is not JSON" });
  }
  const parsed = notificationSchema.safeParse(json);
  if (!parsed.success) return err({ code: "failed", message: "not a YooKassa notification" });
  const { event, object } = parsed.data;
  if (!PAYMENT_EVENT.test(event)) return ok(null);
  const kopekPaymentId = kopekPaymentIdSchema.safeParse(json).data?.object.metadata.kopekPaymentId;
  return ok(
    kopekPaymentId === undefined
      ? { providerPaymentId: object.id }
      : { providerPaymentId: object.id, kopekPaymentId },
  );
}

/**
 * Kopek's payment id in the notified payment's `metadata`, where the adapter put it when it made the
 * payment: it finds a renewal whose answer has not been recorded yet (core checks it with getPayment).
 */
const kopekPaymentIdSchema = z.object({
  object: z.object({ metadata: z.object({ kopekPaymentId: z.string().min(1).max(64) }) }),
});
