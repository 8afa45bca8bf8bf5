import {
  createKopek,
  createUuidV7Generator,
  generateWebhookSecret,
  newWebhookEndpoint,
  type ProviderSettings,
  type Storage,
  type WebhookUrlProblem,
} from "@kopek/core";
import { createSandboxCheckout, createSandboxProvider } from "@kopek/provider-sandbox";
import { createMemoryStorage } from "@kopek/storage-memory";
import { buildApp } from "../src/app.js";
import { createLogger } from "../src/startup/logger.js";
import { createProjectWithKey } from "../src/startup/project-setup.js";
import { startBackgroundJobs } from "../src/webhooks/start-background.js";
import { apiClient } from "./api-client.js";

/** A project (on the sandbox unless `provider` says) with an API key and one enabled webhook endpoint at `hookUrl`, in `storage`. */
export async function projectWithEndpoint(
  storage: Storage,
  name: string,
  hookUrl: string,
  provider: ProviderSettings = { kind: "sandbox", storedMethodCharge: true },
) {
  const { project, apiKey } = (await createProjectWithKey(storage, { name, provider }))._unsafeUnwrap();
  const secret = generateWebhookSecret();
  const endpoint = newWebhookEndpoint({
    id: createUuidV7Generator().newId(),
    projectId: project.id,
    url: hookUrl,
    secret,
    createdAt: new Date(),
  });
  (await storage.saveWebhookEndpoint(endpoint))._unsafeUnwrap();
  return { project, apiKey, secret, endpoint };
}

/**
 * A listening server (memory storage unless given) with one project, its key, a webhook endpoint at
 * `hookUrl`, and the dispatcher polling every 20 ms on a short retry schedule.
 */
export async function startPayServer(
  hookUrl: string,
  options: { storage?: Storage; retryScheduleMs?: number[]; webhookUrlProblem?: WebhookUrlProblem } = {},
) {
  const storage = options.storage ?? createMemoryStorage();
  const logger = createLogger({ level: "silent" });
  const { project, apiKey, secret, endpoint } = await projectWithEndpoint(storage, "Coffee <&> Co", hookUrl);
  let publicUrl = "http://127.0.0.1";
  const sandbox = createSandboxProvider({ storedMethodCharge: true });
  const registry = () => sandbox;
  const { webhookUrlProblem } = options;
  const kopekFor = () =>
    createKopek({
      storage,
      providerFor: registry,
      publicUrl,
      ...(webhookUrlProblem ? { webhookUrlProblem } : {}),
    });
  let kopek = kopekFor();
  const app = await buildApp({
    kopek: new Proxy(kopek, { get: (_t, key) => Reflect.get(kopek, key) }),
    storage,
    logger,
    publicUrl: () => publicUrl,
    sandboxCheckout: createSandboxCheckout(sandbox.ledger),
  });
  await app.listen({ host: "127.0.0.1", port: 0 });
  const address = app.server.address();
  publicUrl = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
  kopek = kopekFor();
  const background = startBackgroundJobs({
    storage,
    providerFor: registry,
    clock: { now: () => new Date() },
    intervalMs: 20,
    logger,
    retryScheduleMs: options.retryScheduleMs ?? [50, 100, 200, 400, 800],
    timeoutMs: 300,
  });
  const { post, get } = apiClient(publicUrl, apiKey);
  return {
    url: publicUrl,
    storage,
    project,
    secret,
    apiKey,
    endpoint,
    post,
    get,
    close: async () => {
      await background.stop();
      await app.close();
    },
  };
}
