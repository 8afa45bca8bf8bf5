import { createUuidV7Generator, generateWebhookSecret, isUuid } from "@kopek/core";
import { webhookUrlPolicy, webhookUrlProblem } from "../webhooks/webhook-url-policy.js";
import { type DatabaseCommandContext, failure, storageFailure } from "./database.js";
import { projectArg } from "./project-arg.js";
import { usage } from "./projects-commands.js";

/** `kopek webhooks add --project <id> --url <url>`: prints the endpoint id and its secret, once. */
export async function webhooksAdd(
  context: DatabaseCommandContext,
  projectId?: string,
  url?: string,
): Promise<number> {
  const { io, storage } = context;
  if (url === undefined || !/^https?:\/\//.test(url) || URL.parse(url) === null)
    return usage(io, "webhooks add needs --url <an absolute https:// URL>");
  const problem = webhookUrlProblem(url, webhookUrlPolicy(io.env));
  if (problem !== null) return usage(io, `webhooks add --url ${problem}`);
  const project = await projectArg(context, "webhooks add", projectId);
  if (typeof project === "number") return project;
  const secret = generateWebhookSecret();
  const id = createUuidV7Generator().newId();
  const endpoint = { id, projectId: project, url, secret, enabled: true, createdAt: new Date() };
  const saved = await storage.saveWebhookEndpoint({
    ...endpoint,
    disabledAt: null,
    disabledReason: null,
    lastSuccessAt: null,
  });
  if (saved.isErr()) return storageFailure(io, saved.error);
  io.stdout(
    `id:     ${id}\nsecret: ${secret}\n\nVerify every webhook with this secret (verifyWebhook in @kopek/core). It is not shown again.\n`,
  );
  return 0;
}

/** `kopek webhooks list --project <id>`: never prints secrets. */
export async function webhooksList(context: DatabaseCommandContext, projectId?: string): Promise<number> {
  const { io, storage } = context;
  const project = await projectArg(context, "webhooks list", projectId);
  if (typeof project === "number") return project;
  const endpoints = await storage.listWebhookEndpoints(project);
  if (endpoints.isErr()) return storageFailure(io, endpoints.error);
  if (endpoints.value.length === 0)
    io.stdout("No webhook endpoints: kopek webhooks add --project <id> --url <url>\n");
  for (const e of endpoints.value) {
    const state = e.enabled ? "enabled" : `disabled ${e.disabledAt?.toISOString()} (${e.disabledReason})`;
    io.stdout(`${e.id}  ${e.url}  ${state}  created ${e.createdAt.toISOString()}\n`);
  }
  return 0;
}

/** `kopek webhooks remove <endpoint-id> --project <id>`. */
export async function webhooksRemove(
  context: DatabaseCommandContext,
  projectId?: string,
  id?: string,
): Promise<number> {
  const { io } = context;
  if (id === undefined || !isUuid(id)) return usage(io, "webhooks remove needs <endpoint-id> (a UUID)");
  const project = await projectArg(context, "webhooks remove", projectId);
  if (typeof project === "number") return project;
  const removed = await context.storage.removeWebhookEndpoint(project, id);
  if (removed.isErr()) return storageFailure(io, removed.error);
  if (!removed.value) return failure(io, `no webhook endpoint ${id} in project ${projectId}`);
  io.stdout(`removed ${id}\n`);
  return 0;
}
