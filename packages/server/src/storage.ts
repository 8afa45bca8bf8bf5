import type { Storage } from "@kopek/core";
import { createMemoryStorage } from "@kopek/storage-memory";
import { err, ok, type Result } from "neverthrow";
import type { Config } from "./config.js";

/** The storage the server runs on, and how to let go of it at shutdown. */
export interface OpenedStorage {
  readonly storage: Storage;
  readonly kind: "memory" | "postgres";
  close(): Promise<void>;
}

/** Memory storage unless DATABASE_URL is set (API.md 8). */
export async function openStorage(config: Config): Promise<Result<OpenedStorage, string>> {
  if (config.databaseUrl !== null) {
    // TODO(postgres): a colleague wires @kopek/storage-postgres here (pool, migrations, encryption key).
    return err(
      "DATABASE_URL is set, but PostgreSQL storage is not wired into the server yet; unset it to use memory storage",
    );
  }
  return ok({ storage: createMemoryStorage(), kind: "memory", close: async () => {} });
}
