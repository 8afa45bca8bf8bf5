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

export const ENDPOINT_COLUMNS =
  "id, project_id, url, secret_ciphertext, enabled, created_at, disabled_at, disabled_reason, last_success_at";

export function toEndpoint(row: Row, cipher: TokenCipher): WebhookEndpoint {
  const id = String(row.id);
  return {
    id,
    projectId: String(row.project_id),
    url: String(row.url),
    secret: cipher.decrypt(toBytes(row.secret_ciphertext), id),
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
