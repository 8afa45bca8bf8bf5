import { err, ok, type Result } from "neverthrow";
import { parseListQuery, type QueryParameters } from "../api/list-query.js";
import type { KopekError } from "../domain/errors.js";
import type {
  CreateWebhookEndpointRequest,
  RedeliverEventRequest,
  UpdateWebhookEndpointRequest,
} from "../validation/webhook-schemas.js";
import { redeliverEvent } from "../webhooks/event-log.js";
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  type EndpointContext,
  type EndpointWithSecret,
  findEndpoint,
  presentWebhookEndpoint,
  rotateWebhookSecret,
  updateWebhookEndpoint,
} from "../webhooks/webhook-endpoints.js";
import { type Execution, fromStorageError, type Outcome } from "./execution.js";
import { pageBody, type ReadContext, type ReadOutcome } from "./read-resources.js";

/** API.md 12 over HTTP: the webhook-endpoint and redelivery operations, on the code path the CLI uses. */

function contextOf(execution: Execution): EndpointContext {
  return {
    storage: execution.storage,
    projectId: execution.project.id,
    now: execution.now,
    urlProblem: execution.webhookUrlProblem,
  };
}

/**
 * The answer that shows a secret. The key stores it with `secret: null`: a secret is shown once and
 * never stored in clear (the idempotency record is not encrypted); a caller who lost the answer
 * rotates the secret.
 */
function withSecret(made: EndpointWithSecret, now: Date, status: 200 | 201): Outcome {
  const shown = presentWebhookEndpoint(made.endpoint, now);
  return {
    status,
    resource: null,
    ...(status === 201 ? { location: `/v1/webhook-endpoints/${made.endpoint.id}` } : {}),
    body: { ...shown, secret: made.secret },
    replayBody: { ...shown, secret: null },
  };
}

/** `POST /v1/webhook-endpoints`: the endpoint's id is the idempotency record's. */
export async function createEndpointOperation(
  execution: Execution,
  input: CreateWebhookEndpointRequest,
): Promise<Result<Outcome, KopekError>> {
  const made = await createWebhookEndpoint(contextOf(execution), execution.recordId, input);
  return made.map((m) => withSecret(m, execution.now, 201));
}

/** `POST /v1/webhook-endpoints/{id}`. */
export async function updateEndpointOperation(
  execution: Execution,
  input: UpdateWebhookEndpointRequest,
  id: string,
): Promise<Result<Outcome, KopekError>> {
  const updated = await updateWebhookEndpoint(contextOf(execution), id, input);
  return updated.map((endpoint) => ({
    status: 200,
    resource: null,
    body: presentWebhookEndpoint(endpoint, execution.now),
  }));
}

/** `POST /v1/webhook-endpoints/{id}/rotate-secret`. */
export async function rotateSecretOperation(
  execution: Execution,
  _input: undefined,
  id: string,
): Promise<Result<Outcome, KopekError>> {
  const rotated = await rotateWebhookSecret(contextOf(execution), id);
  return rotated.map((m) => withSecret(m, execution.now, 200));
}

/** `POST /v1/events/{id}/redeliver`. */
export async function redeliverOperation(
  execution: Execution,
  input: RedeliverEventRequest,
  id: string,
): Promise<Result<Outcome, KopekError>> {
  const queued = await redeliverEvent(contextOf(execution), id, input.endpointId);
  return queued.map((body) => ({ status: 200, resource: null, body }));
}

/** `GET /v1/webhook-endpoints/{id}`. */
export async function getEndpoint(
  context: ReadContext,
  id: string,
): Promise<Result<ReadOutcome, KopekError>> {
  const found = await findEndpoint(context, id);
  return found.map((endpoint) => ({ body: presentWebhookEndpoint(endpoint, context.now) }));
}

/** `GET /v1/webhook-endpoints`: newest first and paged like every list (a project has few: paged here). */
export async function listEndpoints(
  context: ReadContext,
  query: QueryParameters,
): Promise<Result<ReadOutcome, KopekError>> {
  const page = parseListQuery(query, null);
  if (page.isErr()) return err(page.error);
  const { limit, before } = page.value;
  const endpoints = await context.storage.listWebhookEndpoints(context.projectId);
  if (endpoints.isErr()) return err(fromStorageError(endpoints.error));
  const rows = endpoints.value
    .filter((e) => before === null || e.id < before)
    .sort((a, b) => (a.id < b.id ? 1 : -1))
    .slice(0, limit + 1);
  return ok({ body: pageBody(rows, limit, (e) => presentWebhookEndpoint(e, context.now)) });
}

/** `DELETE /v1/webhook-endpoints/{id}`: `{ id, deleted: true }`; 404 when there is none. */
export async function deleteEndpoint(
  context: ReadContext,
  id: string,
): Promise<Result<ReadOutcome, KopekError>> {
  const deleted = await deleteWebhookEndpoint(context, id);
  return deleted.map(() => ({ body: { id, deleted: true } }));
}
