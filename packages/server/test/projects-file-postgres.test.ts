import { randomBytes } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generateWebhookSecret } from "@kopek/core";
import { afterAll, expect, it } from "vitest";
import { applyProjectsFile, loadProjectsFile } from "../src/startup/projects-file.js";
import { dumpDatabase, openServerTestDatabase } from "./postgres-database.js";

const { db, storage } = await openServerTestDatabase();
const dir = await mkdtemp(join(tmpdir(), "kopek-projects-"));
afterAll(async () => {
  await db.close();
  await rm(dir, { recursive: true, force: true });
});

const ID = "0192f3c4-5d6e-7f80-9a1b-2c3d4e5f6a7b";
const YOOKASSA_ID = "0192f3c4-5d6e-7f80-9a1b-2c3d4e5f6a7c";

async function projectsFile(projects: unknown[]): Promise<string> {
  const path = join(dir, `projects-${randomBytes(4).toString("hex")}.json`);
  await writeFile(path, JSON.stringify({ projects }));
  return path;
}

it(`the projects file's webhooks survive restarts without duplicates (${db.backend})`, async () => {
  const secret = generateWebhookSecret();
  const path = await projectsFile([
    {
      id: ID,
      name: "shop",
      provider: { kind: "sandbox" },
      webhooks: [{ url: "https://shop.example/kopek-hooks", secret }],
    },
  ]);
  const file = (await loadProjectsFile(path, {}))._unsafeUnwrap();
  // Each start applies the file again.
  for (let start = 0; start < 3; start++) expect((await applyProjectsFile(storage, file)).isOk()).toBe(true);
  const endpoints = (await storage.listWebhookEndpoints(ID))._unsafeUnwrap();
  expect(endpoints.map((e) => [e.url, e.secret, e.enabled])).toEqual([
    ["https://shop.example/kopek-hooks", secret, true],
  ]);
});

it(`a YooKassa secret key from the projects file is stored encrypted and read back (${db.backend})`, async () => {
  const secretKey = `live_${randomBytes(32).toString("base64url")}`;
  await writeFile(join(dir, "yookassa.key"), `${secretKey}\n`, { mode: 0o600 });
  const path = await projectsFile([
    {
      id: YOOKASSA_ID,
      name: "real shop",
      provider: {
        kind: "yookassa",
        shopId: "506751",
        secretKeyFile: "yookassa.key",
        storedMethods: ["card", "sbp"],
      },
    },
  ]);
  const file = (await loadProjectsFile(path, {}))._unsafeUnwrap();
  expect((await applyProjectsFile(storage, file)).isOk()).toBe(true);

  const { rows } = await db.pool.query(
    "SELECT provider::text AS provider, provider_secrets_ciphertext FROM projects WHERE id = $1",
    [YOOKASSA_ID],
  );
  expect(rows[0].provider).not.toContain(secretKey);
  expect(Buffer.from(rows[0].provider_secrets_ciphertext).toString("latin1")).not.toContain(secretKey);
  expect((await storage.findProject(YOOKASSA_ID))._unsafeUnwrap()?.provider).toEqual({
    kind: "yookassa",
    shopId: "506751",
    secretKey,
    storedMethods: ["card", "sbp"],
    apiUrl: null,
  });
  const dump = await dumpDatabase(db);
  expect(dump.text, dump.how).not.toContain(secretKey);
});
