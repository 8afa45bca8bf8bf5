import { randomUUID } from "node:crypto";
import { createKopek, createWebhookDispatcher } from "@kopek/core";
import { createSandboxProvider } from "@kopek/provider-sandbox";
import { createPostgresStorage, migrate } from "@kopek/storage-postgres";
import { afterAll, expect, it } from "vitest";
import { openTestDatabase } from "../../storage-postgres/test/database.js";
import { testCipher } from "../../storage-postgres/test/test-cipher.js";
import { fetchTransport } from "../src/webhooks/fetch-transport.js";
import { projectWithEndpoint } from "./pay-fixture.js";
import { startReceiver } from "./webhook-receiver.js";

const db = await openTestDatabase();
afterAll(() => db.close());
await migrate(db.pool);
const cipher = testCipher();
const sandbox = createSandboxProvider({ storedMethodCharge: true });

/** Events written by one "process" whose dispatcher never ran (it was killed before delivering). */
async function writeEvents(hookUrl: string, count: number) {
  const storage = createPostgresStorage({ pool: db.pool, encryption: cipher });
  const { project, apiKey } = await projectWithEndpoint(storage, "pg", hookUrl);
  const kopek = createKopek({
    storage,
    providerFor: () => sandbox,
    publicUrl: "http://pay.test",
  });
  for (let i = 0; i < count; i++) {
    const response = await kopek.handle({
      method: "POST",
      url: "/v1/subscriptions",
      headers: {
        authorization: `Bearer ${apiKey}`,
        "idempotency-key": randomUUID(),
        "content-type": "application/json",
      },
      body: JSON.stringify({
        amount: { amount: "100", currency: "RUB" },
        period: { unit: "day", count: 1 },
        method: "card",
        providerMethodRef: `pm_${i}`,
      }),
    });
    expect(response.status).toBe(201);
  }
  return { project };
}

/** A fresh "process": its own pool, storage and dispatcher. */
function dispatcherOnNewPool() {
  const pool = db.isRealServer ? db.newPool({ max: 4 }) : db.pool;
  const storage = createPostgresStorage({ pool, encryption: cipher });
  return createWebhookDispatcher({ storage, transport: fetchTransport, retryScheduleMs: [50, 50, 50] });
}

it("delivers the outbox after a restart: events written, never sent, picked up by a new process", async () => {
  const receiver = await startReceiver();
  try {
    await writeEvents(`${receiver.url}/hooks`, 3);
    expect(receiver.received).toHaveLength(0);
    const report = await dispatcherOnNewPool().runOnce();
    expect(report.delivered).toBeGreaterThanOrEqual(3);
    expect(new Set(receiver.received.map((h) => h.headers["webhook-id"])).size).toBe(3);
  } finally {
    await receiver.close();
  }
});

it.runIf(db.isRealServer)("delivers each event once with two dispatchers on one database", async () => {
  const receiver = await startReceiver();
  try {
    await writeEvents(`${receiver.url}/hooks`, 30);
    const [a, b] = [dispatcherOnNewPool(), dispatcherOnNewPool()];
    await Promise.all([a.runOnce(), b.runOnce(), a.runOnce(), b.runOnce()]);
    const ids = receiver.received.map((h) => String(h.headers["webhook-id"]));
    expect(ids).toHaveLength(30);
    expect(new Set(ids).size).toBe(30);
  } finally {
    await receiver.close();
  }
});
