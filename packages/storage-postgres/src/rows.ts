import type {
  ApiKeyRecord,
  CancelReason,
  Customer,
  ExistingIdempotencyRecord,
  Invoice,
  InvoiceStatus,
  Metadata,
  MethodSave,
  MethodUpdate,
  PaymentMethod,
  PeriodUnit,
  Receipt,
  Subscription,
  SubscriptionStatus,
} from "@kopek/core";
import { savedMethodContext } from "./invoice-columns.js";
import type { TokenCipher } from "./token-cipher.js";

/**
 * Row ⇄ domain mapping. Amounts are selected as `amount::text` so they stay exact strings whatever
 * int8 parser the caller's `pg` is configured with; timestamps may arrive as `Date` or text.
 */

export const API_KEY_COLUMNS = "id, project_id, sha256, created_at, revoked_at";
export const SUBSCRIPTION_COLUMNS = `id, project_id, status, amount::text AS amount, currency, period_unit,
  period_count, method, provider_method_ref_ciphertext, method_mask, description, metadata, started_at,
  next_charge_at, last_charged_at, cycles_started, created_at, canceled_at, cancel_reason, next_cycle,
  next_attempt_at, declines, first_declined_at, invoice_id, receipt, cancel_at, trial_end,
  anchor_at, anchor_period, customer_id, pause_at, method_update, version`;
type Row = Record<string, unknown>;

export function toApiKey(row: Row): ApiKeyRecord {
  return {
    id: String(row.id),
    projectId: String(row.project_id),
    sha256: String(row.sha256),
    createdAt: toDate(row.created_at),
    revokedAt: toNullableDate(row.revoked_at),
  };
}

export function toSubscription(row: Row, cipher: TokenCipher): Subscription {
  const id = String(row.id);
  return {
    id,
    projectId: String(row.project_id),
    status: row.status as SubscriptionStatus,
    amount: { amount: String(row.amount), currency: String(row.currency) },
    period: { unit: row.period_unit as PeriodUnit, count: Number(row.period_count) },
    method: row.method as PaymentMethod,
    providerMethodRef: cipher.decrypt(toBytes(row.provider_method_ref_ciphertext), id),
    methodMask: String(row.method_mask),
    description: String(row.description),
    metadata: row.metadata as Metadata,
    startedAt: toDate(row.started_at),
    nextChargeAt: toDate(row.next_charge_at),
    lastChargedAt: toNullableDate(row.last_charged_at),
    cyclesStarted: Number(row.cycles_started),
    createdAt: toDate(row.created_at),
    canceledAt: toNullableDate(row.canceled_at),
    cancelReason: row.cancel_reason as CancelReason | null,
    nextCycle: Number(row.next_cycle),
    nextAttemptAt: toDate(row.next_attempt_at),
    declines: Number(row.declines),
    firstDeclinedAt: toNullableDate(row.first_declined_at),
    invoiceId: row.invoice_id === null || row.invoice_id === undefined ? null : String(row.invoice_id),
    receipt: (row.receipt ?? null) as Receipt | null,
    cancelAt: toNullableDate(row.cancel_at),
    pauseAt: toNullableDate(row.pause_at ?? null),
    trialEnd: toNullableDate(row.trial_end),
    // Null on rows an older process inserted: the anchor was `started_at` then (migration 0014).
    anchorAt: toNullableDate(row.anchor_at) ?? toDate(row.started_at),
    anchorPeriod: Number(row.anchor_period ?? 0),
    customerId: row.customer_id === null || row.customer_id === undefined ? null : String(row.customer_id),
    methodUpdate: toMethodUpdate(row.method_update, (ciphertext, saveId) =>
      cipher.decrypt(Buffer.from(ciphertext, "base64"), methodSaveContext(id, saveId)),
    ),
    version: Number(row.version),
  };
}

/**
 * What a save's provider ref is encrypted for: it may be the method's token itself (YooKassa's payment
 * method id), so it is kept like `provider_method_ref`, bound to its subscription and save.
 */
function methodSaveContext(subscriptionId: string, saveId: string): string {
  return `${subscriptionId}:method-save:${saveId}`;
}

/**
 * The `method_update` JSON to store: timestamps as ISO 8601 text, each save's ref encrypted (`refCiphertext`,
 * base64). A save's ref is kept only while it is pending (core clears it once final), so a ciphertext
 * here lives about a day: retire an encryption key a day after moving off it.
 */
export function methodUpdateJson(s: Subscription, cipher: TokenCipher): string | null {
  if (s.methodUpdate === null) return null;
  const saves = s.methodUpdate.saves.map(({ ref, ...save }) => ({
    ...save,
    refCiphertext:
      ref === null ? null : cipher.encrypt(ref, methodSaveContext(s.id, save.id)).toString("base64"),
  }));
  return JSON.stringify({ ...s.methodUpdate, saves });
}

type DecryptRef = (ciphertext: string, saveId: string) => string;

/** The `method_update` JSON as stored (timestamps as ISO 8601 text), or null. */
function toMethodUpdate(value: unknown, decryptRef: DecryptRef): MethodUpdate | null {
  if (value === null || value === undefined) return null;
  const json = (typeof value === "string" ? JSON.parse(value) : value) as Record<string, unknown>;
  return {
    id: String(json.id),
    createdAt: toDate(json.createdAt),
    expiresAt: toDate(json.expiresAt),
    attempts: Number(json.attempts),
    completedBy: json.completedBy === null ? null : String(json.completedBy),
    completedAt: toNullableDate(json.completedAt),
    // Links stored before saves with no payment existed hold none.
    saves: Array.isArray(json.saves) ? json.saves.map((save) => toMethodSave(save, decryptRef)) : [],
  };
}

function toMethodSave(value: Record<string, unknown>, decryptRef: DecryptRef): MethodSave {
  const id = String(value.id);
  const ciphertext = value.refCiphertext;
  return {
    id,
    method: value.method as PaymentMethod,
    ref: typeof ciphertext === "string" ? decryptRef(ciphertext, id) : null,
    state: value.state as MethodSave["state"],
    startedAt: toDate(value.startedAt),
  };
}

export function toInvoice(row: Row, cipher: TokenCipher): Invoice {
  const id = String(row.id);
  return {
    id,
    projectId: String(row.project_id),
    status: row.status as InvoiceStatus,
    amount: { amount: String(row.amount), currency: String(row.currency) },
    description: String(row.description),
    comment: row.comment === null ? null : String(row.comment),
    customer: row.customer as Customer | null,
    metadata: row.metadata as Metadata,
    paymentUrl: String(row.payment_url),
    returnUrl: row.return_url === null ? null : String(row.return_url),
    allowedMethods: row.allowed_methods as PaymentMethod[],
    method: row.method as PaymentMethod | null,
    pinnedMethod: row.pinned_method as PaymentMethod | null,
    createdAt: toDate(row.created_at),
    expiresAt: toDate(row.expires_at),
    paidAt: toNullableDate(row.paid_at),
    canceledAt: toNullableDate(row.canceled_at),
    savePaymentMethod: row.save_payment_method === true,
    savedMethod:
      row.saved_method === null || row.saved_method === undefined
        ? null
        : {
            method: row.saved_method as PaymentMethod,
            methodMask: row.saved_method_mask === null ? null : String(row.saved_method_mask),
            providerMethodRef: cipher.decrypt(
              toBytes(row.saved_method_ref_ciphertext),
              savedMethodContext(id),
            ),
          },
    receipt: (row.receipt ?? null) as Receipt | null,
    attempts: Number(row.attempts),
    customerId: row.customer_id === null || row.customer_id === undefined ? null : String(row.customer_id),
    version: Number(row.version),
  };
}

/**
 * A subscription's columns in `SUBSCRIPTION_WRITE_COLUMNS` order: id, then the 28 others (the
 * A subscription's columns in `SUBSCRIPTION_WRITE_COLUMNS` order: id, then the 27 others (the
 * method ref encrypted under the current key, bound to the id).
 */
export function subscriptionValues(s: Subscription, cipher: TokenCipher): unknown[] {
  return [
    s.id,
    s.status,
    s.amount.amount,
    s.amount.currency,
    s.period.unit,
    s.period.count,
    s.method,
    cipher.encrypt(s.providerMethodRef, s.id),
    cipher.currentKeyId,
    s.methodMask,
    s.description,
    JSON.stringify(s.metadata),
    timestamp(s.startedAt),
    timestamp(s.nextChargeAt),
    s.lastChargedAt === null ? null : timestamp(s.lastChargedAt),
    s.cyclesStarted,
    timestamp(s.createdAt),
    nullableTimestamp(s.canceledAt),
    s.cancelReason,
    s.nextCycle,
    timestamp(s.nextAttemptAt),
    s.declines,
    nullableTimestamp(s.firstDeclinedAt),
    s.invoiceId,
    s.receipt === null ? null : JSON.stringify(s.receipt),
    nullableTimestamp(s.cancelAt),
    nullableTimestamp(s.trialEnd),
    timestamp(s.anchorAt),
    s.anchorPeriod,
    s.customerId,
    nullableTimestamp(s.pauseAt),
    methodUpdateJson(s, cipher),
    s.version,
  ];
}

/**
 * A timestamp parameter as ISO 8601 text, which PostgreSQL reads exactly: cheaper than node-postgres
 * formatting a Date in the process's local time zone (a create passes four).
 */
function timestamp(date: Date): string {
  return date.toISOString();
}

function nullableTimestamp(date: Date | null): string | null {
  return date === null ? null : date.toISOString();
}

export function toDate(value: unknown): Date {
  if (value instanceof Date) return value;
  // Text timestamps look like `2026-11-22 09:30:00.123+00`, which `Date` parses as given.
  return new Date(String(value));
}

export function toNullableDate(value: unknown): Date | null {
  return value === null || value === undefined ? null : toDate(value);
}

export function toBytes(value: unknown): Uint8Array {
  if (value instanceof Uint8Array) return value;
  // A caller whose pg returns bytea as text gets the `\x…` hex form.
  const text = String(value);
  return Buffer.from(text.startsWith("\\x") ? text.slice(2) : text, "hex");
}

/** A live idempotency record as the claim's row, or `createOnce`'s record (json), has it. */
export function existingRecordOf(row: {
  state: string | null;
  fingerprint: string | null;
  lease_expires_at: Date | string | null;
  response_status: number | null;
  response_headers: Record<string, string> | null;
  response_body: string | null;
}): ExistingIdempotencyRecord {
  const fingerprint = row.fingerprint ?? "";
  if (row.state === "in_progress")
    return { state: "in_progress", fingerprint, leaseExpiresAt: toDate(row.lease_expires_at) };
  return {
    state: "completed",
    fingerprint,
    response: {
      status: Number(row.response_status),
      headers: row.response_headers ?? {},
      body: row.response_body ?? "",
    },
  };
}
