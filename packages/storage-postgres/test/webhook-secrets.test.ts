import { generateWebhookSecret } from "@kopek/core";
import { sampleProject, sampleWebhookEndpoint } from "@kopek/testing";
import { afterAll, describe, expect, it } from "vitest";
import { createPostgresStorage, migrate } from "../src/index.js";
import { openTestDatabase } from "./database.js";
import { testCipher } from "./test-cipher.js";

// A webhook endpoint's secrets at rest (API.md 12): the current one and the one a rotation keeps
// signing for 24 h, each encrypted and bound to its own column.
const db = await openTestDatabase();
afterAll(() => db.close());
await migrate(db.pool);
const storage = createPostgresStorage({ pool: db.pool, encryption: testCipher() });

async function rotatedEndpoint() {
  const project = sampleProject();
  (await storage.saveProject(project))._unsafeUnwrap();
  const endpoint = sampleWebhookEndpoint(project.id, {
    previousSecret: generateWebhookSecret(),
    previousSecretExpiresAt: new Date("2026-02-02T10:00:00.123Z"),
    eventTypes: ["invoice.paid"],
  });
  (await storage.saveWebhookEndpoint(endpoint))._unsafeUnwrap();
  return endpoint;
}

describe(`webhook secrets on PostgreSQL (${db.backend})`, () => {
  it("stores both secrets encrypted, and reads them back", async () => {
    const endpoint = await rotatedEndpoint();
    const { rows } = await db.pool.query(
      "SELECT secret_ciphertext, previous_secret_ciphertext, event_types FROM webhook_endpoints WHERE id = $1",
      [endpoint.id],
    );
    const [row] = rows;
    expect(row.event_types).toEqual(["invoice.paid"]);
    for (const [column, secret] of [
      ["secret_ciphertext", endpoint.secret],
      ["previous_secret_ciphertext", endpoint.previousSecret ?? ""],
    ] as const) {
      expect(Buffer.isBuffer(row[column])).toBe(true);
      expect(row[column].toString("latin1")).not.toContain(secret.slice("whsec_".length));
    }
    const found = (await storage.findWebhookEndpoint(endpoint.projectId, endpoint.id))._unsafeUnwrap();
    expect(found).toEqual(endpoint);
  });

  it("refuses the two ciphertexts swapped: each is bound to its own column", async () => {
    const endpoint = await rotatedEndpoint();
    await db.pool.query(
      `UPDATE webhook_endpoints SET secret_ciphertext = previous_secret_ciphertext,
         previous_secret_ciphertext = secret_ciphertext WHERE project_id = $1 AND id = $2`,
      [endpoint.projectId, endpoint.id],
    );
    const read = await storage.findWebhookEndpoint(endpoint.projectId, endpoint.id);
    expect(read._unsafeUnwrapErr().code).toBe("storage_failed");
  });

  it("refuses a previous secret without its expiry", async () => {
    const endpoint = await rotatedEndpoint();
    await expect(
      db.pool.query(
        "UPDATE webhook_endpoints SET previous_secret_expires_at = NULL WHERE project_id = $1 AND id = $2",
        [endpoint.projectId, endpoint.id],
      ),
    ).rejects.toThrow(/webhook_endpoints_previous_secret_check/);
  });
});
