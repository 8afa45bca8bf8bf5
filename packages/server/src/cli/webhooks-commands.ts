import { createUuidV7Generator, generateWebhookSecret, isUuid, type Storage } from "@kopek/core";
import { createPostgresStorage } from "@kopek/storage-postgres";
import { loadConfig } from "../startup/config.js";
import { loadTokenCipher } from "../startup/encryption-key.js";
import { type DatabaseCommandContext, failure, storageFailure } from "./database.js";
import { usage } from "./projects-commands.js";

/** Endpoint secrets are encrypted at rest with the server's key, so these commands need the real one. */
async function storageWithServerKey(context: DatabaseCommandContext): Promise<Storage | string> {
  const config = loadConfig(context.io.env);
  if (config.isErr()) return config.error;
  const cipher = await loadTokenCipher(config.value, (message) => context.io.stderr(`kopek: ${message}\n`));
  if (cipher.isErr()) return cipher.error;
  return createPostgresStorage({ pool: context.pool, encryption: cipher.value });
}

/** `kopek webhooks add --project <id> --url <url>`: prints the endpoint id and its secret, once. */
export async function webhooksAdd(
  context: DatabaseCommandContext,
  projectId?: string,
  url?: string,
): Promise<number> {
  const { io } = context;
  if (projectId === undefined || !isUuid(projectId)) return usage(io, "webhooks add needs --project <uuid>");
  if (url === undefined || !/^https?:\/\//.test(url) || URL.parse(url) === null)
    return usage(io, "webhooks add needs --url <an absolute http:// or https:// URL>");
  const storage = await storageWithServerKey(context);
  if (typeof storage === "string") return failure(io, storage);
  const project = await storage.findProject(projectId);
  if (project.isErr()) return storageFailure(io, project.error);
  if (project.value === null) return failure(io, `no project ${projectId}`);
  const secret = generateWebhookSecret();
  const id = createUuidV7Generator().newId();
  const endpoint = { id, projectId, url, secret, enabled: true, createdAt: new Date() };
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
  const { io } = context;
  if (projectId === undefined || !isUuid(projectId)) return usage(io, "webhooks list needs --project <uuid>");
  const storage = await storageWithServerKey(context);
  if (typeof storage === "string") return failure(io, storage);
  const endpoints = await storage.listWebhookEndpoints(projectId);
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
  if (projectId === undefined || !isUuid(projectId) || id === undefined || !isUuid(id))
    return usage(io, "webhooks remove needs <endpoint-id> and --project <uuid>");
  const removed = await context.storage.removeWebhookEndpoint(projectId, id);
  if (removed.isErr()) return storageFailure(io, removed.error);
  if (!removed.value) return failure(io, `no webhook endpoint ${id} in project ${projectId}`);
  io.stdout(`removed ${id}\n`);
  return 0;
}
