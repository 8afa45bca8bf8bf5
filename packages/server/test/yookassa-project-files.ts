import { randomUUID } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generateApiKey, generateWebhookSecret, hashApiKey } from "@kopek/core";
import { startYooKassaEmulator } from "@kopek/provider-yookassa/emulator";
import { recordMethodRef } from "./test-artifacts.js";
import { startReceiver } from "./webhook-receiver.js";

/**
 * What a real `kopek serve` with a YooKassa project needs, set up as an operator would (API.md 10.8):
 * the emulator, a webhook receiver, and a scratch directory with the shop's secret key file, a projects
 * file (`kind: "yookassa"`, `secretKeyFile`, the emulator's `apiUrl`, one key and one webhook) and a
 * test clock file. `close` stops the emulator and the receiver and removes the directory.
 */
export async function prepareYooKassaProject(name: string) {
  const emulator = await startYooKassaEmulator();
  recordMethodRef(emulator.secretKey); // the secret scan after the suite looks for it in the logs
  const receiver = await startReceiver();
  const scratch = await mkdtemp(join(tmpdir(), `kopek-${name}-`));
  const projectId = randomUUID();
  const apiKey = generateApiKey();
  const projectsFile = join(scratch, "projects.json");
  await writeFile(join(scratch, "shop.key"), `${emulator.secretKey}\n`, { mode: 0o600 });
  const provider = {
    kind: "yookassa",
    shopId: emulator.shopId,
    secretKeyFile: "shop.key",
    apiUrl: emulator.apiUrl,
  };
  const project = {
    id: projectId,
    name: "Coffee Co",
    provider,
    apiKeys: [{ sha256: hashApiKey(apiKey) }],
    webhooks: [{ url: `${receiver.url}/hooks`, secret: generateWebhookSecret() }],
  };
  await writeFile(projectsFile, JSON.stringify({ projects: [project] }));
  return {
    emulator,
    receiver,
    scratch,
    projectId,
    apiKey,
    projectsFile,
    clockFile: join(scratch, "clock"),
    close: async () => {
      await emulator.close();
      await receiver.close();
      await rm(scratch, { recursive: true, force: true });
    },
  };
}
