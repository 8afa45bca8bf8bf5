import type { AddressInfo } from "node:net";
import { createKopek } from "@kopek/core";
import { createSandboxProvider } from "@kopek/provider-sandbox";
import { createMemoryStorage } from "@kopek/storage-memory";
import { buildApp } from "../../server/src/app.js";
import { createProjectWithKey } from "../../server/src/startup/project-setup.js";

/** The reference server on a free port, over memory storage and the sandbox provider. */
export async function startLiveServer() {
  const storage = createMemoryStorage();
  const provider = createSandboxProvider();
  const publicUrl = "http://127.0.0.1";
  const kopek = createKopek({ storage, providerFor: () => provider, publicUrl });
  const app = await buildApp({ kopek, storage, publicUrl });
  await app.listen({ host: "127.0.0.1", port: 0 });
  return {
    baseUrl: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`,
    /** A new project, so that a test can count what it made: its API key. */
    async newProject(): Promise<string> {
      const project = await createProjectWithKey(storage, {
        name: "shop",
        provider: { kind: "sandbox", storedMethodCharge: true },
      });
      return project._unsafeUnwrap().apiKey;
    },
    close: () => app.close(),
  };
}
