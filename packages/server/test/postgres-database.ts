import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { promisify } from "node:util";
import type { Storage } from "@kopek/core";
import { createMemoryStorage } from "@kopek/storage-memory";
import { createPostgresStorage, createTokenCipher, migrate } from "@kopek/storage-postgres";
import { openTestDatabase, type TestDatabase } from "../../storage-postgres/test/database.js";

export type { TestDatabase };

/**
 * A fresh, migrated test database (storage-postgres's helper: a real server when one answers, else
 * PGlite) and a storage on it, as the server would build from DATABASE_URL.
 */
export async function openServerTestDatabase() {
  const db = await openTestDatabase();
  await migrate(db.pool);
  const key = randomBytes(32);
  const encryption = createTokenCipher({ keys: [{ id: "test", key }], currentKeyId: "test" });
  return { db, key, storage: createPostgresStorage({ pool: db.pool, encryption }) };
}

/** The storages a server test runs on, each opened fresh and closed after: memory, and PostgreSQL. */
export const SERVER_STORAGES: readonly [
  name: string,
  open: () => Promise<{ readonly storage: Storage; readonly close: () => Promise<void> }>,
][] = [
  ["memory", async () => ({ storage: createMemoryStorage(), close: async () => {} })],
  [
    "PostgreSQL",
    async () => {
      const { db, storage } = await openServerTestDatabase();
      return { storage, close: () => db.close() };
    },
  ],
];

/**
 * Everything the database holds, as text: `pg_dump` when it is installed and the database is on a
 * real server, else every row of every table read through the pool (bytea as hex, as pg_dump has it).
 */
export async function dumpDatabase(db: TestDatabase): Promise<{ how: string; text: string }> {
  let why = "PGlite has no pg_dump";
  if (db.url !== null) {
    try {
      const { stdout } = await promisify(execFile)("pg_dump", ["--no-owner", db.url], {
        maxBuffer: 64 << 20,
      });
      return { how: "pg_dump", text: stdout };
    } catch (cause) {
      // Not installed, or older than the server (pg_dump refuses a newer server): read the tables instead.
      why = `pg_dump failed: ${(cause as Error).message.split("\n", 1)[0]}`;
    }
  }
  const { rows: tables } = await db.pool.query<{ name: string }>(
    "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY 1",
  );
  const parts: string[] = [];
  for (const { name } of tables) {
    const { rows } = await db.pool.query(`SELECT * FROM "${name}"`);
    const text = JSON.stringify(rows, (_key, value) =>
      value?.type === "Buffer" ? `\\x${Buffer.from(value.data).toString("hex")}` : value,
    );
    parts.push(`-- ${name}\n${text}`);
  }
  return { how: `SELECT * from every table (${why})`, text: parts.join("\n") };
}
