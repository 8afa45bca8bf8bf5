import { createServer, type Server } from "node:http";
import { createKopek, generateApiKey, hashApiKey, type Kopek, type Storage } from "@kopek/core";
import { createSandboxProvider } from "@kopek/provider-sandbox";
import { createMemoryStorage } from "@kopek/storage-memory";
import { createKopekHandler } from "./kopek-handler.js";

export interface EmbeddedKopek {
  readonly server: Server;
  readonly kopek: Kopek;
  readonly storage: Storage;
  /** Issues a new project and returns its API key, shown this once. */
  addProject(name: string, options?: { storedMethodCharge?: boolean }): Promise<string>;
}

/** Kopek's core in a plain `node:http` server, over memory storage and the sandbox provider. */
export function createEmbeddedKopek({ publicUrl }: { publicUrl: string | (() => string) }): EmbeddedKopek {
  const storage = createMemoryStorage();
  const sandbox = createSandboxProvider();
  const cannotCharge = createSandboxProvider({ storedMethodCharge: false, ledger: sandbox.ledger });
  const kopek = createKopek({
    storage,
    // Every project here is on the sandbox; a real embedding would also handle the other kinds.
    providerFor: (project) =>
      project.provider.kind === "sandbox" && project.provider.storedMethodCharge ? sandbox : cannotCharge,
    publicUrl,
    onError: (cause, { requestId }) => console.error(`request ${requestId} failed`, cause),
  });
  const server = createServer(createKopekHandler(kopek));

  async function addProject(name: string, { storedMethodCharge = true } = {}): Promise<string> {
    const now = new Date();
    const apiKey = generateApiKey();
    const project = {
      id: crypto.randomUUID(),
      name,
      provider: { kind: "sandbox" as const, storedMethodCharge },
      createdAt: now,
    };
    const saved = await storage.saveProject(project).andThen(() =>
      storage.addApiKey({
        id: crypto.randomUUID(),
        projectId: project.id,
        sha256: hashApiKey(apiKey),
        createdAt: now,
        revokedAt: null,
      }),
    );
    if (saved.isErr()) throw new Error(`cannot save project: ${saved.error.message}`);
    return apiKey;
  }

  return { server, kopek, storage, addProject };
}
