import type { InspectableStorage } from "@kopek/core";
import { countStorage } from "./count-storage.js";
import type { CreateBatchOptions } from "./create-once.js";
import { customerStorage } from "./customer-storage.js";
import { eventLogStorage } from "./event-log-storage.js";
import { idempotencyStorage } from "./idempotency-storage.js";
import { outboxStorage } from "./outbox-storage.js";
import { paymentStorage } from "./payment-storage.js";
import type { PostgresPool } from "./pool.js";
import { projectDeletionStorage } from "./project-deletion.js";
import { projectStorage } from "./project-storage.js";
import { refundStorage } from "./refund-storage.js";
import { resourceStorage } from "./resource-storage.js";
import { scheduleStorage } from "./schedule-storage.js";
import { createSqlContext } from "./sql-context.js";
import type { TokenCipher } from "./token-cipher.js";

export interface PostgresStorageOptions {
  /** A `pg.Pool` (or compatible) on a database `migrate()` has prepared. The caller owns and ends it. */
  readonly pool: PostgresPool;
  /**
   * Encrypts `providerMethodRef` at rest. Required: there is no built-in key. Build one with
   * `createTokenCipher({ keys: [{ id, key: parseEncryptionKey(base64) }], currentKeyId: id })`.
   */
  readonly encryption: TokenCipher;
  /**
   * How often a claim (or a `createOnce`) that lost a race with a concurrent change is re-run before
   * failing (default 5).
   */
  readonly maxClaimAttempts?: number;
  /**
   * Writes stored by `createOnce` (new invoices) go in batches under load: while `maxInFlight`
   * statements (default 4) run, the next one takes up to `maxSize` (default 64) waiting writes at
   * once, one transaction for all. A lone write goes at once. `false` writes each on its own.
   */
  readonly createBatches?: CreateBatchOptions | false;
}

/** Every table `inspect()` shows, with a stable order for its rows. */
const INSPECTED_TABLES = {
  kopek_migrations: "version",
  projects: "created_at, id",
  api_keys: "created_at, id",
  idempotency_records: "created_at, project_id, key",
  subscriptions: "id",
  invoices: "id",
  payments: "id",
  refunds: "id",
  customers: "id",
  webhook_endpoints: "created_at, id",
  events: "id",
  webhook_deliveries: "event_id, endpoint_id",
  webhook_delivery_attempts: "id",
} as const;

/** Kopek's storage port over PostgreSQL, one part per concern. Run `migrate(pool)` first. */
export function createPostgresStorage(options: PostgresStorageOptions): InspectableStorage {
  const { pool } = options;
  const sql = createSqlContext(pool, options.encryption, options.maxClaimAttempts ?? 5);
  return {
    ...projectStorage(sql),
    ...projectDeletionStorage(sql),
    ...idempotencyStorage(sql, options.createBatches),
    ...resourceStorage(sql),
    ...paymentStorage(sql),
    ...refundStorage(sql),
    ...scheduleStorage(sql),
    ...outboxStorage(sql),
    ...eventLogStorage(sql),
    ...customerStorage(sql),
    ...countStorage(sql),

    checkHealth: () =>
      sql.run("checkHealth", async () => {
        await sql.query("check_health", "SELECT 1", []);
      }),

    async inspect() {
      const tables: Record<string, Record<string, unknown>[]> = {};
      for (const [table, order] of Object.entries(INSPECTED_TABLES)) {
        // Every row of every project: on Citus a read across every shard, allowed for this one.
        tables[table] = await sql.acrossProjects(
          `inspect_${table}`,
          `SELECT * FROM ${table} ORDER BY ${order}`,
          [],
        );
      }
      return tables;
    },
  };
}
