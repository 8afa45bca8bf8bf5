import {
  createUuidV7Generator,
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  type EndpointWithSecret,
  isUuid,
  listEndpointDeliveries,
  type presentAttempt,
  presentWebhookEndpoint,
  rotateWebhookSecret,
  updateWebhookEndpoint,
  validateCreateWebhookEndpoint,
  validateUpdateWebhookEndpoint,
  type WebhookEndpoint,
} from "@kopek/core";
import type { DatabaseCommandContext } from "./database.js";
import { eventsList, eventsRedeliver } from "./events-commands.js";
import { usage } from "./projects-commands.js";
import { endpointContext, queryOf, refused, type WebhookOptions } from "./webhook-cli-context.js";

/**
 * `kopek webhooks …` and `kopek events …`: API.md 12 for operators, through core's own functions (the
 * ones the HTTP API runs), with the server's URL rule read from the command's environment.
 */

type Command = (
  context: DatabaseCommandContext,
  words: readonly string[],
  options: WebhookOptions,
) => Promise<number>;

/** The command of `words` (`webhooks add`, `events redeliver <id>`), or null when there is none. */
export function webhookCommand(words: readonly string[]): Command | null {
  const [group, verb, ...ids] = words;
  const command = COMMANDS[`${group} ${verb}`];
  if (command === undefined) return null;
  return ids.length <= (command.takesId ? 1 : 0) ? command.run : null;
}

const COMMANDS: Readonly<Record<string, { readonly takesId: boolean; readonly run: Command }>> = {
  "webhooks add": { takesId: false, run: (c, _w, o) => webhooksAdd(c, o) },
  "webhooks list": { takesId: false, run: (c, _w, o) => webhooksList(c, o) },
  "webhooks update": { takesId: true, run: (c, w, o) => webhooksUpdate(c, w[2], o) },
  "webhooks rotate-secret": { takesId: true, run: (c, w, o) => webhooksRotate(c, w[2], o) },
  "webhooks remove": { takesId: true, run: (c, w, o) => webhooksRemove(c, w[2], o) },
  "webhooks deliveries": { takesId: true, run: (c, w, o) => webhooksDeliveries(c, w[2], o) },
  "events list": { takesId: false, run: (c, _w, o) => eventsList(c, o) },
  "events redeliver": { takesId: true, run: (c, w, o) => eventsRedeliver(c, w[2], o) },
};

/** `--events a,b` as the API's `events`; `all` is null (every type). */
function eventsOption(events: string | undefined): readonly string[] | null | undefined {
  if (events === undefined) return undefined;
  return events.trim() === "all" ? null : events.split(",").map((t) => t.trim());
}

function printSecret(io: DatabaseCommandContext["io"], made: EndpointWithSecret, note: string): void {
  io.stdout(
    `id:     ${made.endpoint.id}\nsecret: ${made.secret}\n\n${note} (verifyWebhook in @kopek/core). It is not shown again.\n`,
  );
}

/** `kopek webhooks add --project <id> --url <url> [--events a,b] [--description <text>]`. */
async function webhooksAdd(context: DatabaseCommandContext, options: WebhookOptions): Promise<number> {
  if (options.url === undefined)
    return usage(context.io, "webhooks add needs --url <an absolute https:// URL>");
  const body = {
    url: options.url,
    ...(options.events === undefined ? {} : { events: eventsOption(options.events) }),
    ...(options.description === undefined ? {} : { description: options.description }),
  };
  const input = validateCreateWebhookEndpoint(body);
  if (input.isErr()) return refused(context, "webhooks add", input.error);
  const endpoints = await endpointContext(context, "webhooks add", options);
  if (typeof endpoints === "number") return endpoints;
  const made = await createWebhookEndpoint(endpoints, createUuidV7Generator().newId(), input.value);
  if (made.isErr()) return refused(context, "webhooks add", made.error);
  printSecret(context.io, made.value, "Verify every webhook with this secret");
  return 0;
}

function describe(endpoint: WebhookEndpoint, now: Date): string {
  const shown = presentWebhookEndpoint(endpoint, now);
  const state = shown.enabled ? "enabled" : `disabled ${shown.disabledAt} (${shown.disabledReason})`;
  const events = shown.events === null ? "all events" : shown.events.join(",");
  const overlap =
    shown.previousSecretExpiresAt === null ? "" : `  old secret signs until ${shown.previousSecretExpiresAt}`;
  const note = shown.description === null ? "" : `  ${JSON.stringify(shown.description)}`;
  return `${shown.id}  ${shown.url}  ${state}  ${events}  created ${shown.createdAt}${overlap}${note}\n`;
}

/** `kopek webhooks list --project <id>`: never prints secrets. */
async function webhooksList(context: DatabaseCommandContext, options: WebhookOptions): Promise<number> {
  const endpoints = await endpointContext(context, "webhooks list", options);
  if (typeof endpoints === "number") return endpoints;
  const listed = await context.storage.listWebhookEndpoints(endpoints.projectId);
  if (listed.isErr())
    return refused(context, "webhooks list", { code: "storage_unavailable", cause: listed.error });
  if (listed.value.length === 0)
    context.io.stdout("No webhook endpoints: kopek webhooks add --project <id> --url <url>\n");
  for (const endpoint of listed.value) context.io.stdout(describe(endpoint, endpoints.now));
  return 0;
}

function endpointId(
  context: DatabaseCommandContext,
  command: string,
  id: string | undefined,
): string | number {
  return id !== undefined && isUuid(id)
    ? id.toLowerCase()
    : usage(context.io, `${command} needs <endpoint-id> (a UUID)`);
}

/** `kopek webhooks update <endpoint-id> --project <id> [--url] [--events] [--description] [--enabled true|false]`. */
async function webhooksUpdate(
  context: DatabaseCommandContext,
  id: string | undefined,
  options: WebhookOptions,
) {
  const command = "webhooks update";
  const endpoint = endpointId(context, command, id);
  if (typeof endpoint === "number") return endpoint;
  if (options.enabled !== undefined && options.enabled !== "true" && options.enabled !== "false")
    return usage(context.io, `${command} --enabled takes true or false`);
  const body = {
    ...(options.url === undefined ? {} : { url: options.url }),
    ...(options.events === undefined ? {} : { events: eventsOption(options.events) }),
    ...(options.description === undefined
      ? {}
      : { description: options.description === "" ? null : options.description }),
    ...(options.enabled === undefined ? {} : { enabled: options.enabled === "true" }),
  };
  const input = validateUpdateWebhookEndpoint(body);
  if (input.isErr()) return refused(context, command, input.error);
  const endpoints = await endpointContext(context, command, options);
  if (typeof endpoints === "number") return endpoints;
  const updated = await updateWebhookEndpoint(endpoints, endpoint, input.value);
  if (updated.isErr())
    return refused(
      context,
      command,
      updated.error,
      `webhook endpoint ${endpoint} in project ${endpoints.projectId}`,
    );
  context.io.stdout(describe(updated.value, endpoints.now));
  return 0;
}

/** `kopek webhooks rotate-secret <endpoint-id> --project <id>`: the old secret signs beside it for 24 h. */
async function webhooksRotate(
  context: DatabaseCommandContext,
  id: string | undefined,
  options: WebhookOptions,
) {
  const command = "webhooks rotate-secret";
  const endpoint = endpointId(context, command, id);
  if (typeof endpoint === "number") return endpoint;
  const endpoints = await endpointContext(context, command, options);
  if (typeof endpoints === "number") return endpoints;
  const rotated = await rotateWebhookSecret(endpoints, endpoint);
  if (rotated.isErr())
    return refused(
      context,
      command,
      rotated.error,
      `webhook endpoint ${endpoint} in project ${endpoints.projectId}`,
    );
  const until = rotated.value.endpoint.previousSecretExpiresAt?.toISOString();
  printSecret(
    context.io,
    rotated.value,
    `Deliveries are signed with this secret and, until ${until}, the old one too`,
  );
  return 0;
}

/** `kopek webhooks remove <endpoint-id> --project <id>`. */
async function webhooksRemove(
  context: DatabaseCommandContext,
  id: string | undefined,
  options: WebhookOptions,
) {
  const command = "webhooks remove";
  const endpoint = endpointId(context, command, id);
  if (typeof endpoint === "number") return endpoint;
  const endpoints = await endpointContext(context, command, options);
  if (typeof endpoints === "number") return endpoints;
  const removed = await deleteWebhookEndpoint(endpoints, endpoint);
  if (removed.isErr())
    return refused(
      context,
      command,
      removed.error,
      `webhook endpoint ${endpoint} in project ${endpoints.projectId}`,
    );
  context.io.stdout(`removed ${endpoint}\n`);
  return 0;
}

/** `kopek webhooks deliveries <endpoint-id> --project <id> [--status delivered|retry|failed] [--limit n]`. */
async function webhooksDeliveries(
  context: DatabaseCommandContext,
  id: string | undefined,
  options: WebhookOptions,
) {
  const command = "webhooks deliveries";
  const endpoint = endpointId(context, command, id);
  if (typeof endpoint === "number") return endpoint;
  const endpoints = await endpointContext(context, command, options);
  if (typeof endpoints === "number") return endpoints;
  const listed = await listEndpointDeliveries(endpoints, endpoint, queryOf(options, ["status", "limit"]));
  if (listed.isErr())
    return refused(
      context,
      command,
      listed.error,
      `webhook endpoint ${endpoint} in project ${endpoints.projectId}`,
    );
  const { data } = listed.value.body as { data: ReturnType<typeof presentAttempt>[] };
  if (data.length === 0) context.io.stdout("No delivery attempts yet\n");
  for (const a of data)
    context.io.stdout(
      `${a.attemptedAt}  ${a.eventId}  ${a.eventType}  ${a.outcome}  ${a.httpStatus ?? "-"}  ${a.durationMs} ms${a.error === null ? "" : `  ${a.error}`}\n`,
    );
  return 0;
}
