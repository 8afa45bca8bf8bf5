import { randomUUID } from "node:crypto";
import { createKopek, generateWebhookSecret, newWebhookEndpoint, type Storage } from "@kopek/core";
import { createSandboxCheckout, createSandboxLedger } from "@kopek/provider-sandbox";
import {
  createKopekHandler,
  createProjectWithKey,
  createProviderRegistry,
  startKopekBackground,
} from "@kopek/server";
import { createMemoryStorage } from "@kopek/storage-memory";
import express from "express";

export interface Shop {
  /** The shop's origin, e.g. `http://127.0.0.1:3002`; Kopek is under `${url}/kopek`. */
  readonly url: string;
  readonly storage: Storage;
  /** Adds a project with the sandbox provider and returns its id and API key (shown once). */
  addProject(name: string): Promise<{ readonly projectId: string; readonly apiKey: string }>;
  /** Subscribes `url` to the project's events; returns the secret its signatures are made with. */
  addWebhook(projectId: string, url: string): Promise<string>;
  close(): Promise<void>;
}

/**
 * A shop's own Express app (its `/` route and its own JSON body parsing) with Kopek mounted under
 * `/kopek`: the API, the payment page, provider notifications and the sandbox's checkout, plus the
 * background jobs (renewals, webhooks, expiry, reconciliation) in this process.
 */
export async function startShop(port: number, host = "127.0.0.1"): Promise<Shop> {
  let url = `http://${host}:${port}`;
  const publicUrl = () => `${url}/kopek`;
  const storage = createMemoryStorage();
  // The sandbox's books, shared by its providers and its checkout page (served under /kopek too).
  const ledger = createSandboxLedger();
  const providerFor = createProviderRegistry({ ledger });
  const sandboxCheckout = createSandboxCheckout(ledger);
  const kopek = createKopek({ storage, providerFor, publicUrl });

  const kopekHandler = await createKopekHandler({ kopek, storage, publicUrl, sandboxCheckout });
  const app = express();
  // Before any body parser: Kopek reads request bodies itself.
  app.use("/kopek", kopekHandler.handle);
  app.use(express.json());
  app.get("/", (_request, response) => {
    response.json({ shop: "open", kopek: publicUrl() });
  });
  const server = app.listen(port, host);
  await new Promise<void>((resolve, reject) => server.once("listening", resolve).once("error", reject));
  const address = server.address();
  if (typeof address === "object" && address !== null) url = `http://${host}:${address.port}`;
  const background = startKopekBackground({ storage, providerFor, publicUrl, intervalMs: 200 });

  return {
    url,
    storage,
    async addProject(name) {
      const created = await createProjectWithKey(storage, {
        name,
        provider: { kind: "sandbox", storedMethodCharge: true },
      });
      if (created.isErr()) throw new Error(`cannot create the project: ${created.error.code}`);
      return { projectId: created.value.project.id, apiKey: created.value.apiKey };
    },
    async addWebhook(projectId, hookUrl) {
      const secret = generateWebhookSecret();
      const saved = await storage.saveWebhookEndpoint(
        newWebhookEndpoint({
          id: randomUUID(),
          projectId,
          url: hookUrl,
          secret,
          createdAt: new Date(),
        }),
      );
      if (saved.isErr()) throw new Error(`cannot add the webhook: ${saved.error.code}`);
      return secret;
    },
    async close() {
      await background.stop();
      await new Promise((resolve) => server.close(resolve));
      await kopekHandler.close();
    },
  };
}
