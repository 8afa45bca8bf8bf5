import { err, ok, type Result } from "neverthrow";
import type { KopekError } from "../domain/errors.js";
import type { EventType } from "../events/domain-event.js";
import type { WebhookEndpoint } from "../ports/outbox-storage.js";
import type { Storage } from "../ports/storage.js";
import type { WebhookUrlProblem } from "../ports/webhook-transport.js";
import { fromStorageError } from "../use-cases/execution.js";
import type {
  CreateWebhookEndpointRequest,
  UpdateWebhookEndpointRequest,
} from "../validation/webhook-schemas.js";
import { generateWebhookSecret } from "./webhook-signature.js";

/**
 * Webhook endpoints as the API (API.md 12) and the CLI manage them: one code path for both. The
 * secret leaves Kopek only in the answer of a create or a rotation.
 */

/** How long a rotated-out secret keeps signing beside the new one (API.md 12). */
export const SECRET_ROTATION_OVERLAP_MS = 24 * 60 * 60_000;

export interface EndpointContext {
  readonly storage: Storage;
  readonly projectId: string;
  readonly now: Date;
  /** The outbound guard's rule on the URL as written; checked again at every delivery. */
  readonly urlProblem: WebhookUrlProblem;
  readonly newSecret?: () => string;
}

/** An endpoint with the secret it was given by this create or rotation. */
export interface EndpointWithSecret {
  readonly endpoint: WebhookEndpoint;
  readonly secret: string;
}

/** The rule of a URL that Kopek does not check itself (an embedding without the server's guard). */
export const httpsOnly: WebhookUrlProblem = (url) =>
  url.startsWith("https://") ? null : "must be an absolute https:// URL";

function checkUrl(context: EndpointContext, url: string): Result<string, KopekError> {
  const problem = context.urlProblem(url);
  return problem === null ? ok(url) : err({ code: "url_not_allowed", detail: `the url ${problem}` });
}

/** A new enabled endpoint under `id` (the idempotency record's, so a re-execution makes the same one). */
export async function createWebhookEndpoint(
  context: EndpointContext,
  id: string,
  input: CreateWebhookEndpointRequest,
): Promise<Result<EndpointWithSecret, KopekError>> {
  const url = checkUrl(context, input.url);
  if (url.isErr()) return err(url.error);
  const secret = (context.newSecret ?? generateWebhookSecret)();
  const endpoint = newWebhookEndpoint({
    id,
    projectId: context.projectId,
    url: url.value,
    secret,
    createdAt: context.now,
    eventTypes: input.events ?? null,
    description: input.description ?? null,
  });
  const saved = await context.storage.saveWebhookEndpoint(endpoint);
  return saved.isErr() ? err(fromStorageError(saved.error)) : ok({ endpoint, secret });
}

/** A new enabled endpoint that never delivered; every event type unless `eventTypes` names some. */
export function newWebhookEndpoint(
  fields: Pick<WebhookEndpoint, "id" | "projectId" | "url" | "secret" | "createdAt"> &
    Partial<Pick<WebhookEndpoint, "eventTypes" | "description">>,
): WebhookEndpoint {
  return {
    eventTypes: null,
    description: null,
    ...fields,
    previousSecret: null,
    previousSecretExpiresAt: null,
    enabled: true,
    disabledAt: null,
    disabledReason: null,
    lastSuccessAt: null,
  };
}

/** The endpoint, or 404 `not_found` (also for another project's id). */
export async function findEndpoint(
  context: Pick<EndpointContext, "storage" | "projectId">,
  id: string,
): Promise<Result<WebhookEndpoint, KopekError>> {
  const found = await context.storage.findWebhookEndpoint(context.projectId, id);
  if (found.isErr()) return err(fromStorageError(found.error));
  return found.value === null ? err({ code: "not_found" }) : ok(found.value);
}

export const DISABLED_THROUGH_API = "disabled by the operator";

/**
 * Changes the fields sent. `enabled: false` stops deliveries (they wait, due, until it is enabled);
 * `enabled: true` starts them again, also after the dispatcher disabled it for failing.
 */
export async function updateWebhookEndpoint(
  context: EndpointContext,
  id: string,
  input: UpdateWebhookEndpointRequest,
): Promise<Result<WebhookEndpoint, KopekError>> {
  const found = await findEndpoint(context, id);
  if (found.isErr()) return found;
  const current = found.value;
  const url = input.url === undefined ? ok(current.url) : checkUrl(context, input.url);
  if (url.isErr()) return err(url.error);
  const enabled = input.enabled ?? current.enabled;
  const endpoint: WebhookEndpoint = {
    ...current,
    url: url.value,
    eventTypes: input.events === undefined ? current.eventTypes : (input.events as EventType[] | null),
    description: input.description === undefined ? current.description : input.description,
    enabled,
    disabledAt: enabled ? null : (current.disabledAt ?? context.now),
    disabledReason: enabled ? null : (current.disabledReason ?? DISABLED_THROUGH_API),
  };
  const saved = await context.storage.saveWebhookEndpoint(endpoint);
  return saved.isErr() ? err(fromStorageError(saved.error)) : ok(endpoint);
}

/**
 * A new secret; the one it replaces keeps signing beside it for 24 hours, so receivers that still
 * verify with the old one go on accepting every delivery while they are updated (no downtime).
 */
export async function rotateWebhookSecret(
  context: EndpointContext,
  id: string,
): Promise<Result<EndpointWithSecret, KopekError>> {
  const found = await findEndpoint(context, id);
  if (found.isErr()) return err(found.error);
  const secret = (context.newSecret ?? generateWebhookSecret)();
  const endpoint: WebhookEndpoint = {
    ...found.value,
    secret,
    previousSecret: found.value.secret,
    previousSecretExpiresAt: new Date(context.now.getTime() + SECRET_ROTATION_OVERLAP_MS),
  };
  const saved = await context.storage.saveWebhookEndpoint(endpoint);
  return saved.isErr() ? err(fromStorageError(saved.error)) : ok({ endpoint, secret });
}

/** Deletes the endpoint with its pending deliveries and log; 404 when there is none. */
export async function deleteWebhookEndpoint(
  context: Pick<EndpointContext, "storage" | "projectId">,
  id: string,
): Promise<Result<void, KopekError>> {
  const removed = await context.storage.removeWebhookEndpoint(context.projectId, id);
  if (removed.isErr()) return err(fromStorageError(removed.error));
  return removed.value ? ok(undefined) : err({ code: "not_found" });
}

/** The secrets that sign a delivery at `at`: the current one, and a rotated-out one still in its overlap. */
export function signingSecrets(endpoint: WebhookEndpoint, at: Date): readonly string[] {
  const { secret, previousSecret, previousSecretExpiresAt } = endpoint;
  return previousSecret !== null && previousSecretExpiresAt !== null && previousSecretExpiresAt > at
    ? [secret, previousSecret]
    : [secret];
}

/** An endpoint as the API shows it: never a secret. */
export function presentWebhookEndpoint(endpoint: WebhookEndpoint, now: Date) {
  const overlap = signingSecrets(endpoint, now).length > 1;
  return {
    id: endpoint.id,
    url: endpoint.url,
    events: endpoint.eventTypes === null ? null : [...endpoint.eventTypes],
    description: endpoint.description,
    enabled: endpoint.enabled,
    disabledAt: endpoint.disabledAt?.toISOString() ?? null,
    disabledReason: endpoint.disabledReason,
    lastSuccessAt: endpoint.lastSuccessAt?.toISOString() ?? null,
    previousSecretExpiresAt: overlap ? (endpoint.previousSecretExpiresAt?.toISOString() ?? null) : null,
    createdAt: endpoint.createdAt.toISOString(),
  };
}

export type WebhookEndpointView = ReturnType<typeof presentWebhookEndpoint>;
