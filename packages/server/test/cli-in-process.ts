import { randomBytes, randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Storage, StoredResource } from "@kopek/core";
import { createPostgresStorage, createTokenCipher, migrate } from "@kopek/storage-postgres";
import { afterAll } from "vitest";
import { openTestDatabase, type TestDatabase } from "../../storage-postgres/test/database.js";
import { runCli } from "../src/cli/run-cli.js";
import { encryptionKeyId } from "../src/startup/encryption-key.js";

/**
 * Runs a `kopek` command in this process on `db`, whose pool the command is handed (PGlite has no URL
 * to reach it by), with these variables beside DATABASE_URL and this standard input.
 */
export async function kopekOn(
  db: TestDatabase,
  argv: readonly string[],
  env: Readonly<Record<string, string>> = {},
  stdin = "",
) {
  let stdout = "";
  let stderr = "";
  const code = await runCli(argv, {
    env: { DATABASE_URL: db.url ?? "postgres://pglite/in-process", ...env },
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
    openDatabase: () => ({ pool: db.pool, close: async () => {} }),
    readStdin: async () => stdin,
  });
  return { code, stdout, stderr };
}

/**
 * A subscription or invoice stored the only way the port allows, as the API stores a new one: as the
 * outcome of a claimed idempotency key whose record id is the resource's.
 */
export async function storedAsTheApiWould(storage: Storage, resource: StoredResource): Promise<void> {
  const { id, projectId } = resource.kind === "subscription" ? resource.subscription : resource.invoice;
  const now = new Date();
  const claim = {
    projectId,
    key: randomUUID(),
    fingerprint: "f",
    recordId: id,
    leaseToken: randomUUID(),
    now,
    leaseExpiresAt: new Date(now.getTime() + 30_000),
    expiresAt: new Date(now.getTime() + 86_400_000),
    apiKeyId: null,
  };
  (await storage.claimIdempotencyKey(claim))._unsafeUnwrap();
  const { key, leaseToken } = claim;
  const response = { status: 201, headers: {}, body: "{}" };
  const completion = { projectId, key, leaseToken, response, resource, now, events: [], payments: [] };
  (await storage.completeIdempotencyKey(completion))._unsafeUnwrap();
}

/** A storage on `db` reading secrets as a server started with `KOPEK_ENCRYPTION_KEY` = `key` does. */
export function serverStorageOn(db: TestDatabase, key: Buffer) {
  const id = encryptionKeyId(key);
  const encryption = createTokenCipher({ keys: [{ id, key }], currentKeyId: id });
  return createPostgresStorage({ pool: db.pool, encryption });
}

/**
 * For a test file of commands on projects with a provider's secret: a fresh migrated database, a
 * scratch directory (for secret files), the server's encryption key and a storage reading with it;
 * the database and the directory go after the file's tests.
 */
export async function openCliFixture(name: string) {
  const db = await openTestDatabase();
  await migrate(db.pool);
  const dir = await mkdtemp(join(tmpdir(), `kopek-${name}-`));
  afterAll(async () => {
    await db.close();
    await rm(dir, { recursive: true, force: true });
  });
  const key = randomBytes(32);
  return { db, dir, key, serverStorage: serverStorageOn(db, key) };
}
