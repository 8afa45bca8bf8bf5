import { generateWebhookSecret } from "@kopek/core";
import { afterAll, expect, it } from "vitest";
import { applyProjectsFile, parseProjectsFile } from "../src/startup/projects-file.js";
import { openServerTestDatabase } from "./postgres-database.js";

const { db, storage } = await openServerTestDatabase();
afterAll(() => db.close());

const ID = "0192f3c4-5d6e-7f80-9a1b-2c3d4e5f6a7b";

it(`the projects file's webhooks survive restarts without duplicates (${db.backend})`, async () => {
  const secret = generateWebhookSecret();
  const file = parseProjectsFile(
    JSON.stringify({
      projects: [
        {
          id: ID,
          name: "shop",
          provider: { kind: "sandbox" },
          webhooks: [{ url: "https://shop.example/kopek-hooks", secret }],
        },
      ],
    }),
  )._unsafeUnwrap();
  // Each start applies the file again.
  for (let start = 0; start < 3; start++) expect((await applyProjectsFile(storage, file)).isOk()).toBe(true);
  const endpoints = (await storage.listWebhookEndpoints(ID))._unsafeUnwrap();
  expect(endpoints.map((e) => [e.url, e.secret, e.enabled])).toEqual([
    ["https://shop.example/kopek-hooks", secret, true],
  ]);
});
