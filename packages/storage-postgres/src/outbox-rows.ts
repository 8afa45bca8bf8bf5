import type { ClaimedDelivery, DomainEvent, EventType, WebhookEndpoint } from "@kopek/core";
import { toBytes, toDate, toNullableDate } from "./rows.js";
import type { TokenCipher } from "./token-cipher.js";

type Row = Record<string, unknown>;

/** Events as rows of `EVENT_RECORD` (outbox-sql.ts), plain JSON data. */
export function eventRows(events: readonly DomainEvent[]) {
  return events.map((e) => ({
    id: e.id,
    project_id: e.projectId,
    type: e.type,
    created_at: e.createdAt.toISOString(),
    data: e.data,
  }));
}

/** Events as the JSON array parameter `outboxCtes` reads. */
export function eventsParameter(events: readonly DomainEvent[]): string {
  return JSON.stringify(eventRows(events));
}

export function toEvent(row: Row, prefix = ""): DomainEvent {
  return {
    id: String(row[`${prefix}id`]),
    projectId: String(row.project_id),
    type: row.type as EventType,
    createdAt: toDate(row.created_at),
    data: row.data as Record<string, unknown>,
  };
}

export const ENDPOINT_COLUMNS = `id, project_id, url, secret_ciphertext, previous_secret_ciphertext,
  previous_secret_expires_at, event_types, description, enabled, created_at, disabled_at, disabled_reason,
  last_success_at`;

/**
 * What each of an endpoint's secrets is bound to (GCM associated data): a ciphertext moved to the
 * other column, or to another endpoint, fails to decrypt.
 */
export const secretContext = (endpointId: string) => endpointId;
export const previousSecretContext = (endpointId: string) => `${endpointId}:previous`;

export function toEndpoint(row: Row, cipher: TokenCipher): WebhookEndpoint {
  const id = String(row.id);
  const previous = row.previous_secret_ciphertext;
  return {
    id,
    projectId: String(row.project_id),
    url: String(row.url),
    secret: cipher.decrypt(toBytes(row.secret_ciphertext), secretContext(id)),
    previousSecret: previous === null ? null : cipher.decrypt(toBytes(previous), previousSecretContext(id)),
    previousSecretExpiresAt: toNullableDate(row.previous_secret_expires_at),
    eventTypes: row.event_types === null ? null : (row.event_types as EventType[]),
    description: row.description === null ? null : String(row.description),
    enabled: Boolean(row.enabled),
    createdAt: toDate(row.created_at),
    disabledAt: toNullableDate(row.disabled_at),
    disabledReason: row.disabled_reason === null ? null : String(row.disabled_reason),
    lastSuccessAt: toNullableDate(row.last_success_at),
  };
}

export function toClaimedDelivery(row: Row, cipher: TokenCipher, leaseToken: string): ClaimedDelivery {
  const event = toEvent({ ...row, id: row.event_id });
  const endpoint = toEndpoint({ ...row, id: row.endpoint_id, created_at: row.endpoint_created_at }, cipher);
  return { event, endpoint, attempts: Number(row.attempts), leaseToken };
}
