import { isUuid, listEvents, type presentEvent, redeliverEvent } from "@kopek/core";
import type { DatabaseCommandContext } from "./database.js";
import { usage } from "./projects-commands.js";
import { endpointContext, queryOf, refused, type WebhookOptions } from "./webhook-cli-context.js";

/** `kopek events list --project <id> [--type <type>] [--limit n]`: newest first. */
export async function eventsList(context: DatabaseCommandContext, options: WebhookOptions): Promise<number> {
  const endpoints = await endpointContext(context, "events list", options);
  if (typeof endpoints === "number") return endpoints;
  const listed = await listEvents(endpoints, queryOf(options, ["type", "limit"]));
  if (listed.isErr()) return refused(context, "events list", listed.error);
  const { data } = listed.value.body as { data: ReturnType<typeof presentEvent>[] };
  if (data.length === 0) context.io.stdout("No events\n");
  for (const e of data) context.io.stdout(`${e.id}  ${e.timestamp}  ${e.type}  ${String(e.data.id ?? "")}\n`);
  return 0;
}

/** `kopek events redeliver <event-id> --project <id> [--endpoint <endpoint-id>]`. */
export async function eventsRedeliver(
  context: DatabaseCommandContext,
  id: string | undefined,
  options: WebhookOptions,
) {
  const command = "events redeliver";
  if (id === undefined || !isUuid(id)) return usage(context.io, `${command} needs <event-id> (a UUID)`);
  if (options.endpoint !== undefined && !isUuid(options.endpoint))
    return usage(context.io, `${command} --endpoint must be a UUID`);
  const endpoints = await endpointContext(context, command, options);
  if (typeof endpoints === "number") return endpoints;
  const queued = await redeliverEvent(endpoints, id.toLowerCase(), options.endpoint?.toLowerCase());
  if (queued.isErr())
    return refused(context, command, queued.error, `event ${id} in project ${endpoints.projectId}`);
  const { endpointIds } = queued.value;
  context.io.stdout(
    endpointIds.length === 0
      ? "queued to no endpoint: none enabled takes this event's type\n"
      : `queued to ${endpointIds.join(", ")}\n`,
  );
  return 0;
}
