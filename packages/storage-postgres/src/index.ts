// @kopek/storage-postgres — Kopek's storage port over PostgreSQL.

export { type DistributeResult, distributeForCitus } from "./citus.js";
export {
  checksum,
  loadMigrations,
  MIGRATION_LOCK_KEY,
  type MigrateOptions,
  type MigrateResult,
  type Migration,
  migrate,
} from "./migrate.js";
export type { PostgresPool, PostgresPoolClient } from "./pool.js";
export { createPostgresStorage, type PostgresStorageOptions } from "./postgres-storage.js";
export {
  createTokenCipher,
  type EncryptionKey,
  parseEncryptionKey,
  type TokenCipher,
  type TokenCipherOptions,
} from "./token-cipher.js";
