import { randomUUID } from "node:crypto";
import { sampleInvoice, sampleProject, sampleSubscription } from "@kopek/testing";
import { afterAll, expect, it } from "vitest";
import { createPostgresStorage, migrate } from "../src/index.js";
import { openTestDatabase } from "./database.js";
import { testCipher } from "./test-cipher.js";

const db = await openTestDatabase();
afterAll(() => db.close());
await migrate(db.pool);
const storage = createPostgresStorage({ pool: db.pool, encryption: testCipher() });

// Neither alphabetical nor by length: jsonb would hand these back as mid, alpha, zeta_last.
const metadata = { zeta_last: "1", alpha: "2", mid: "3" };

it("keeps metadata keys in the order a resource was created with", async () => {
  const project = sampleProject();
  await storage.saveProject(project);
  const now = new Date();
  const response = { status: 201, headers: {}, body: "{}" };
  const subscription = sampleSubscription(project.id, { metadata });
  const invoice = sampleInvoice(project.id, { metadata });
  for (const resource of [
    { kind: "subscription", subscription },
    { kind: "invoice", invoice },
  ] as const) {
    const key = randomUUID();
    const leaseToken = randomUUID();
    const claim = {
      projectId: project.id,
      key,
      fingerprint: "f",
      recordId: randomUUID(),
      leaseToken,
      now,
    };
    const expires = {
      leaseExpiresAt: new Date(now.getTime() + 30_000),
      expiresAt: new Date(now.getTime() + 60_000),
      apiKeyId: null,
    };
    (await storage.claimIdempotencyKey({ ...claim, ...expires }))._unsafeUnwrap();
    const completion = {
      projectId: project.id,
      key,
      leaseToken,
      response,
      resource,
      events: [],
      payments: [],
      now,
    };
    (await storage.completeIdempotencyKey(completion))._unsafeUnwrap();
  }
  const storedSubscription = (await storage.findSubscription(project.id, subscription.id))._unsafeUnwrap();
  const storedInvoice = (await storage.findInvoice(project.id, invoice.id))._unsafeUnwrap();
  expect(JSON.stringify(storedSubscription?.metadata)).toBe(JSON.stringify(metadata));
  expect(JSON.stringify(storedInvoice?.metadata)).toBe(JSON.stringify(metadata));
});
