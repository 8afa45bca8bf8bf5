import type { Storage, StorageError } from "@kopek/core";
import { createPostgresStorage, type PostgresPool, type TokenCipher } from "@kopek/storage-postgres";
import { ok } from "neverthrow";
import { loadConfig } from "../startup/config.js";
import { loadTokenCipher } from "../startup/encryption-key.js";
import { openPool } from "../startup/storage.js";

/** Where a command writes, and how it reaches the database (tests hand in their own pool). */
export interface CliIo {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  /** All of standard input (for secrets that must not be on the command line); none when absent. */
  readonly readStdin?: () => Promise<string>;
  readonly openDatabase?: (databaseUrl: string) => { pool: PostgresPool; close(): Promise<void> };
}

export interface DatabaseCommandContext {
  readonly pool: PostgresPool;
  readonly storage: Storage;
  readonly io: CliIo;
}

/**
 * Runs a command against DATABASE_URL and closes the connection after it. Without DATABASE_URL: one
 * line and exit 2, since the command was asked for something it cannot do here. Projects (their
 * provider's secret) and webhook endpoints are encrypted at rest with the server's key, so commands
 * load it as the server does; `needsKey: false` (migrate, the key commands) keeps a command from
 * needing, or creating, that key: such a command reads no secret.
 */
export async function withDatabase(
  io: CliIo,
  command: (context: DatabaseCommandContext) => Promise<number>,
  { needsKey = true }: { readonly needsKey?: boolean } = {},
): Promise<number> {
  const config = loadConfig(io.env);
  if (config.isErr()) return failure(io, config.error);
  const url = config.value.databaseUrl;
  if (url === null) {
    io.stderr("kopek: this command needs DATABASE_URL (a postgres:// URL) to know which database to use\n");
    return 2;
  }
  const encryption = needsKey
    ? await loadTokenCipher(config.value, (message) => io.stderr(`kopek: ${message}\n`))
    : ok(NO_KEY);
  if (encryption.isErr()) return failure(io, encryption.error);
  const database = io.openDatabase?.(url) ?? defaultDatabase(url);
  try {
    return await command({
      pool: database.pool,
      storage: createPostgresStorage({ pool: database.pool, encryption: namingTheKey(encryption.value) }),
      io,
    });
  } finally {
    await database.close();
  }
}

const KEY_HINT =
  "set KOPEK_ENCRYPTION_KEY to the server's encryption key (a retired one goes in KOPEK_ENCRYPTION_OLD_KEYS)";

/** The loaded cipher, whose failures to decrypt say which variable holds the key they lacked. */
function namingTheKey(cipher: TokenCipher): TokenCipher {
  return {
    currentKeyId: cipher.currentKeyId,
    encrypt: (plaintext, context) => cipher.encrypt(plaintext, context),
    keyIdOf: (ciphertext) => cipher.keyIdOf(ciphertext),
    decrypt(ciphertext, context) {
      try {
        return cipher.decrypt(ciphertext, context);
      } catch (cause) {
        throw new Error(`${(cause as Error).message}: ${KEY_HINT}`);
      }
    },
  };
}

// The adapter requires a cipher; a command run without the key touches no secret, and would say so.
const refuseWithoutKey = (): never => {
  throw new Error(
    "this command runs without the encryption key (KOPEK_ENCRYPTION_KEY) and cannot read or write a secret",
  );
};
const NO_KEY: TokenCipher = {
  currentKeyId: "none",
  encrypt: refuseWithoutKey,
  decrypt: refuseWithoutKey,
  keyIdOf: refuseWithoutKey,
};

function defaultDatabase(url: string) {
  const pool = openPool(url);
  pool.on("error", () => {}); // a lost idle connection surfaces on the next query instead
  return { pool, close: () => pool.end() };
}

export function failure(io: CliIo, message: string): number {
  io.stderr(`kopek: ${message}\n`);
  return 1;
}

/** A storage error as one line; the adapter's message already says "run migrate first" for a bare database. */
export function storageFailure(io: CliIo, error: StorageError): number {
  return failure(io, error.message);
}
