import { err, ok, type Result } from "neverthrow";
import { parseListQuery, type QueryParameters } from "../api/list-query.js";
import type { FieldIssue, KopekError } from "../domain/errors.js";
import { type DomainEvent, EVENT_TYPES, type EventType } from "../events/domain-event.js";
import type { LoggedAttempt } from "../ports/event-log-storage.js";
import type { Storage } from "../ports/storage.js";
import { fromStorageError } from "../use-cases/execution.js";
import { pageBody } from "../use-cases/read-resources.js";
import { DELIVERY_OUTCOMES } from "../validation/webhook-schemas.js";
import { findEndpoint } from "./webhook-endpoints.js";

/** The events a project's webhooks carried and each attempt to deliver them (API.md 12). */

/** How long events (with their deliveries and attempts) are kept. */
export const EVENT_RETENTION_MS = 30 * 24 * 60 * 60_000;

export interface EventLogContext {
  readonly storage: Storage;
  readonly projectId: string;
  readonly now: Date;
}

/** An event as the API shows it: the body delivered (`{ type, timestamp, data }`) with its id. */
export function presentEvent(event: DomainEvent) {
  return { id: event.id, type: event.type, timestamp: event.createdAt.toISOString(), data: event.data };
}

export function presentAttempt(attempt: LoggedAttempt) {
  return {
    id: attempt.id,
    eventId: attempt.eventId,
    eventType: attempt.eventType,
    endpointId: attempt.endpointId,
    attemptedAt: attempt.at.toISOString(),
    outcome: attempt.outcome,
    httpStatus: attempt.status,
    error: attempt.error,
    durationMs: attempt.durationMs,
  };
}

const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

/** `GET /v1/events?type=&since=&limit=&cursor=`: newest first. */
export async function listEvents(
  context: EventLogContext,
  query: QueryParameters,
): Promise<Result<{ readonly body: unknown }, KopekError>> {
  const page = parseListQuery(query, null, [], ["type", "since"]);
  if (page.isErr()) return err(page.error);
  const { limit, before, texts } = page.value;
  const issues: FieldIssue[] = [];
  const type = texts.type ?? null;
  if (type !== null && !(EVENT_TYPES as readonly string[]).includes(type))
    issues.push({
      pointer: "#/type",
      code: "invalid_value",
      detail: `must be one of ${EVENT_TYPES.join(", ")}`,
    });
  const since = texts.since === undefined ? null : new Date(texts.since);
  if (since !== null && (!ISO_TIMESTAMP.test(texts.since ?? "") || Number.isNaN(since.getTime())))
    issues.push({
      pointer: "#/since",
      code: "invalid_format",
      detail: "must be an ISO 8601 timestamp, e.g. 2026-11-22T09:30:00.000Z",
    });
  if (issues.length > 0) return err({ code: "validation_failed", errors: issues });
  const rows = await context.storage.listEvents(context.projectId, {
    limit: limit + 1,
    before,
    type: type as EventType | null,
    since,
  });
  if (rows.isErr()) return err(fromStorageError(rows.error));
  return ok({ body: pageBody(rows.value, limit, presentEvent) });
}

/** `GET /v1/events/{id}`: 404 for an unknown id, another project's, or one past its 30 days. */
export async function getEvent(
  context: EventLogContext,
  id: string,
): Promise<Result<{ readonly body: unknown }, KopekError>> {
  const found = await context.storage.findEvent(context.projectId, id);
  if (found.isErr()) return err(fromStorageError(found.error));
  return found.value === null ? err({ code: "not_found" }) : ok({ body: presentEvent(found.value) });
}

/** `GET /v1/webhook-endpoints/{id}/deliveries?status=&limit=&cursor=`: each attempt, newest first. */
export async function listEndpointDeliveries(
  context: EventLogContext,
  endpointId: string,
  query: QueryParameters,
): Promise<Result<{ readonly body: unknown }, KopekError>> {
  const page = parseListQuery(query, DELIVERY_OUTCOMES);
  if (page.isErr()) return err(page.error);
  const endpoint = await findEndpoint(context, endpointId);
  if (endpoint.isErr()) return err(endpoint.error);
  const { limit, before, status } = page.value;
  const rows = await context.storage.listDeliveryAttempts(context.projectId, endpointId, {
    limit: limit + 1,
    before,
    outcome: status as LoggedAttempt["outcome"] | null,
  });
  if (rows.isErr()) return err(fromStorageError(rows.error));
  return ok({ body: pageBody(rows.value, limit, presentAttempt) });
}

/**
 * `POST /v1/events/{id}/redeliver`: queues the event again, due now with a fresh retry schedule, to
 * one endpoint of the project (any, even one that does not take this type or is disabled: it waits
 * until enabled), or to every enabled endpoint that takes its type.
 */
export async function redeliverEvent(
  context: EventLogContext,
  eventId: string,
  endpointId: string | undefined,
): Promise<Result<{ readonly eventId: string; readonly endpointIds: readonly string[] }, KopekError>> {
  const found = await context.storage.findEvent(context.projectId, eventId);
  if (found.isErr()) return err(fromStorageError(found.error));
  const event = found.value;
  if (event === null) return err({ code: "not_found" });
  let targets: string[];
  if (endpointId !== undefined) {
    const endpoint = await context.storage.findWebhookEndpoint(context.projectId, endpointId);
    if (endpoint.isErr()) return err(fromStorageError(endpoint.error));
    if (endpoint.value === null)
      return err({
        code: "validation_failed",
        errors: [
          {
            pointer: "#/endpointId",
            code: "invalid_value",
            detail: "names no webhook endpoint of this project",
          },
        ],
      });
    targets = [endpointId];
  } else {
    const endpoints = await context.storage.listWebhookEndpoints(context.projectId);
    if (endpoints.isErr()) return err(fromStorageError(endpoints.error));
    targets = endpoints.value
      .filter((e) => e.enabled && (e.eventTypes === null || e.eventTypes.includes(event.type)))
      .map((e) => e.id);
  }
  if (targets.length === 0) return ok({ eventId, endpointIds: [] });
  const queued = await context.storage.redeliverEvent(context.projectId, eventId, targets, context.now);
  if (queued.isErr()) return err(fromStorageError(queued.error));
  return ok({ eventId, endpointIds: queued.value });
}
