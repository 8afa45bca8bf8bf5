import { createHmac, randomBytes as cryptoRandomBytes, timingSafeEqual } from "node:crypto";
import { err, ok, type Result } from "neverthrow";

/** Standard Webhooks (standardwebhooks.com): secrets are `whsec_` + base64 of the HMAC key. */
export const WEBHOOK_SECRET_PREFIX = "whsec_";
const DEFAULT_TOLERANCE_SECONDS = 5 * 60;

/** A new signing secret: 32 random bytes, `whsec_`-prefixed base64. */
export function generateWebhookSecret(randomBytes: (size: number) => Uint8Array = cryptoRandomBytes): string {
  return WEBHOOK_SECRET_PREFIX + Buffer.from(randomBytes(32)).toString("base64");
}

function keyOf(secret: string): Buffer | null {
  if (!secret.startsWith(WEBHOOK_SECRET_PREFIX)) return null;
  const encoded = secret.slice(WEBHOOK_SECRET_PREFIX.length);
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(encoded)) return null;
  const key = Buffer.from(encoded, "base64");
  return key.length >= 16 ? key : null;
}

/** Whether a string is a usable `whsec_` secret (base64 of at least 16 bytes). */
export function isWebhookSecret(secret: string): boolean {
  return keyOf(secret) !== null;
}

function signature(key: Buffer, id: string, timestamp: string, body: string): Buffer {
  return createHmac("sha256", key).update(`${id}.${timestamp}.${body}`).digest();
}

/**
 * The three Standard Webhooks headers for one message. The id stays the same across retries. Given
 * several secrets (a rotation's overlap), one `v1` signature per secret, space-separated: a receiver
 * holding either verifies it.
 */
export function signWebhook(
  secrets: string | readonly string[],
  id: string,
  sentAt: Date,
  body: string,
): Record<string, string> {
  const timestamp = String(Math.floor(sentAt.getTime() / 1000));
  const signatures = (typeof secrets === "string" ? [secrets] : secrets).map((secret) => {
    const key = keyOf(secret);
    if (key === null) throw new TypeError("signWebhook: the secret must be whsec_ followed by base64");
    return `v1,${signature(key, id, timestamp, body).toString("base64")}`;
  });
  return { "webhook-id": id, "webhook-timestamp": timestamp, "webhook-signature": signatures.join(" ") };
}

export type WebhookHeaders = Readonly<Record<string, string | readonly string[] | undefined>> | Headers;

export interface VerifiedWebhook {
  readonly id: string;
  readonly timestamp: Date;
}

export interface WebhookVerificationError {
  readonly code: "invalid_secret" | "missing_headers" | "timestamp_out_of_tolerance" | "invalid_signature";
  readonly message: string;
}

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  const value = headers[name] ?? headers[name.toLowerCase()];
  return typeof value === "string" ? value : value?.[0];
}

/**
 * Verifies a webhook Kopek sent (for receivers): the timestamp within `toleranceSeconds` of now
 * (default 300) against replays, and at least one `v1` signature matching, compared in constant time.
 * `body` must be the raw body exactly as received.
 */
export function verifyWebhook(
  secret: string,
  headers: WebhookHeaders,
  body: string,
  options: { readonly toleranceSeconds?: number; readonly now?: Date } = {},
): Result<VerifiedWebhook, WebhookVerificationError> {
  const key = keyOf(secret);
  if (key === null)
    return err({ code: "invalid_secret", message: "the secret must be whsec_ followed by base64" });
  const id = header(headers, "webhook-id");
  const timestamp = header(headers, "webhook-timestamp");
  const signatures = header(headers, "webhook-signature");
  if (!id || !timestamp || !signatures || !/^[0-9]{1,12}$/.test(timestamp)) {
    return err({
      code: "missing_headers",
      message: "webhook-id, webhook-timestamp and webhook-signature are required",
    });
  }
  const sentAt = Number(timestamp) * 1000;
  const tolerance = (options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS) * 1000;
  if (Math.abs((options.now ?? new Date()).getTime() - sentAt) > tolerance) {
    return err({
      code: "timestamp_out_of_tolerance",
      message: "the webhook-timestamp is too old or too new",
    });
  }
  const expected = signature(key, id, timestamp, body);
  for (const candidate of signatures.split(" ")) {
    const [version, encoded] = candidate.split(",", 2);
    if (version !== "v1" || encoded === undefined) continue;
    const given = Buffer.from(encoded, "base64");
    if (given.length === expected.length && timingSafeEqual(given, expected)) {
      return ok({ id, timestamp: new Date(sentAt) });
    }
  }
  return err({ code: "invalid_signature", message: "no signature matches" });
}
