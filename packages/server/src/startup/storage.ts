import type { Storage } from "@kopek/core";
import { createMemoryStorage } from "@kopek/storage-memory";
import { createPostgresStorage, migrate } from "@kopek/storage-postgres";
import { err, ok, type Result } from "neverthrow";
import pg from "pg";
import type { Logger } from "pino";
import type { Config } from "./config.js";
import { loadEncryption } from "./encryption-key.js";
import { redactSecrets } from "./logger.js";

/** The storage the server runs on, and how to let go of it at shutdown. */
export interface OpenedStorage {
  readonly storage: Storage;
  readonly kind: "memory" | "postgres";
  /** The PostgreSQL pool (shared by the rate limits); null on memory. */
  readonly pool: pg.Pool | null;
  /** The key that encrypts secrets at rest (PostgreSQL), which every instance shares; null on memory. */
  readonly encryptionKey: Buffer | null;
  close(): Promise<void>;
}

// Without a limit a connection to an address that drops packets waits forever, and /readyz with it.
const CONNECT_TIMEOUT_MS = 5000;

/** Memory storage unless DATABASE_URL is set; then PostgreSQL, migrated on start (API.md 8). */
export async function openStorage(config: Config, logger: Logger): Promise<Result<OpenedStorage, string>> {
  if (config.databaseUrl === null) {
    return ok({
      storage: createMemoryStorage(),
      kind: "memory",
      pool: null,
      encryptionKey: null,
      close: async () => {},
    });
  }
  const encryption = await loadEncryption(config, (message) => logger.warn(message));
  if (encryption.isErr()) return err(encryption.error);
  const pool = openPool(config.databaseUrl);
  // An idle connection the server drops (a restart, a failover) is reported here; unhandled, it would
  // end the process. The pool replaces it, and /readyz says 503 until the database answers again.
  pool.on("error", (cause) => logger.warn({ err: cause }, "idle PostgreSQL connection lost"));
  try {
    const { applied } = await migrate(pool);
    logger.info({ applied }, applied.length > 0 ? "database migrated" : "database schema is current");
  } catch (cause) {
    await pool.end();
    return err(`cannot prepare the database at DATABASE_URL: ${describeDatabaseError(cause)}`);
  }
  return ok({
    storage: createPostgresStorage({ pool, encryption: encryption.value.cipher }),
    kind: "postgres",
    pool,
    encryptionKey: encryption.value.currentKey,
    close: () => pool.end(),
  });
}

/**
 * A pool on DATABASE_URL; the CLI's database commands use one too. Every connection gets an `error`
 * listener of its own for its whole life: node-postgres reports a connection the server ends while no
 * statement runs on it (a backend noticing its postmaster died, a failover) as an `error` event, and
 * one heard by nobody — a connection between a pool's listeners — ends the process. A statement in
 * flight still fails on its own, and the pool still drops the connection.
 */
export function openPool(databaseUrl: string): pg.Pool {
  const pool = new pg.Pool({ connectionString: databaseUrl, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  pool.on("connect", (client) => client.on("error", () => {}));
  return pool;
}

/** One line about a database failure: the driver's message (never the URL, which may hold a password). */
export function describeDatabaseError(cause: unknown): string {
  const error = cause as Partial<Error & { code: string }>;
  const message = error?.message || error?.code || String(cause);
  return redactSecrets(message.split("\n", 1)[0] ?? "");
}
