import type {
  ClaimOutcome,
  IdempotencyClaim,
  IdempotencyCompletion,
  InspectableStorage,
  InvoicePage,
  ResourcePage,
  StorageError,
} from "@kopek/core";
import { ResultAsync } from "neverthrow";
import type { QueryResultRow } from "pg";
import { type CreateBatchOptions, createBatcher } from "./create-batch.js";
import { createOnceMethod } from "./create-once.js";
import { CLAIM, type ClaimRow, COMPLETE, PURGE, RELEASE, WITHDRAW } from "./idempotency-sql.js";
import { eventsParameter } from "./outbox-rows.js";
import { updateWithOutbox, withOutbox } from "./outbox-sql.js";
import { outboxMethods } from "./outbox-storage.js";
import type { PostgresPool } from "./pool.js";
import {
  CLAIM_DUE_SUBSCRIPTIONS,
  COMPLETE_REPLACING_INVOICE,
  COMPLETE_REPLACING_SUBSCRIPTION,
  COMPLETE_WITH_INVOICE,
  COMPLETE_WITH_SUBSCRIPTION,
  LIST_INVOICES,
  LIST_INVOICES_EXPIRED,
  LIST_INVOICES_IN_STATUS,
  LIST_INVOICES_OPEN,
  LIST_SUBSCRIPTIONS,
  NO_CURSOR,
  SAVE_INVOICE,
  SAVE_SUBSCRIPTION,
} from "./resource-sql.js";
import {
  API_KEY_COLUMNS,
  existingRecordOf,
  INVOICE_COLUMNS,
  invoiceValues,
  PROJECT_COLUMNS,
  SUBSCRIPTION_COLUMNS,
  subscriptionValues,
  toApiKey,
  toInvoice,
  toProject,
  toSubscription,
} from "./rows.js";
import { conflict, leaseLost, toStorageError } from "./storage-errors.js";
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
   * New invoices stored by `createOnce` are written in batches under load: while `maxInFlight`
   * statements (default 4) run, the next one takes up to `maxSize` (default 64) waiting invoices at
   * once, one transaction for all. A lone invoice goes at once. `false` writes each on its own.
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
  webhook_endpoints: "created_at, id",
  events: "id",
  webhook_deliveries: "event_id, endpoint_id",
} as const;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Thrown inside an operation to end it with a specific port error instead of a translated one. */
class PortFailure {
  constructor(readonly error: StorageError) {}
}

/** Kopek's storage port over PostgreSQL. Run `migrate(pool)` first. */
export function createPostgresStorage(options: PostgresStorageOptions): InspectableStorage {
  const { pool, encryption: cipher } = options;
  const maxClaimAttempts = options.maxClaimAttempts ?? 5;

  /** One named prepared statement: parsed once per connection, then a single round trip each. */
  async function query<R extends QueryResultRow>(name: string, text: string, values: unknown[]) {
    return pool.query<R>({ name: `kopek_${name}`, text, values });
  }

  function run<T>(operation: string, work: () => Promise<T>): ResultAsync<T, StorageError> {
    return ResultAsync.fromPromise(work(), (error) =>
      error instanceof PortFailure ? error.error : toStorageError(operation, error),
    );
  }

  async function claimOnce(claim: IdempotencyClaim): Promise<ClaimOutcome | null> {
    const { rows } = await query<ClaimRow>("claim", CLAIM, [
      claim.projectId,
      claim.key,
      claim.fingerprint,
      claim.recordId,
      claim.leaseToken,
      claim.leaseExpiresAt,
      claim.expiresAt,
      claim.now,
      claim.apiKeyId,
    ]);
    const row = rows[0];
    if (row === undefined) return null;
    if (row.outcome === "key_revoked") return { kind: "key_revoked" };
    if (row.outcome === "claimed")
      return { kind: "claimed", recordId: row.record_id, takenOver: row.taken_over };
    return { kind: "existing", record: existingRecordOf(row) };
  }

  /**
   * The one statement of a completion: its name, text and values. With a resource, version 1 inserts
   * it and version n replaces version n−1; the row it returns tells a lost lease from a conflict.
   */
  function completionStatement(completion: IdempotencyCompletion): [string, string, unknown[]] {
    const [name, text, values] = resourceCompletion(completion);
    const events = completion.events ?? [];
    if (completion.resource === null || events.length === 0) return [name, text, values];
    // With events: the same statement plus the outbox CTEs, guarded by the resource write.
    const param = values.length + 1;
    return [`${name}_events`, withOutbox(text, param, "resource"), [...values, eventsParameter(events)]];
  }

  function resourceCompletion(completion: IdempotencyCompletion): [string, string, unknown[]] {
    const { projectId, key, leaseToken, response, resource } = completion;
    const record = [
      projectId,
      key,
      leaseToken,
      response.status,
      JSON.stringify(response.headers),
      response.body,
    ];
    if (resource === null) return ["complete", COMPLETE, record];
    if (resource.kind === "subscription") {
      const values = [...record, ...subscriptionValues(resource.subscription, cipher)];
      return resource.subscription.version === 1
        ? ["complete_subscription", COMPLETE_WITH_SUBSCRIPTION, values]
        : ["complete_subscription_replace", COMPLETE_REPLACING_SUBSCRIPTION, values];
    }
    const values = [...record, ...invoiceValues(resource.invoice)];
    return resource.invoice.version === 1
      ? ["complete_invoice", COMPLETE_WITH_INVOICE, values]
      : ["complete_invoice_replace", COMPLETE_REPLACING_INVOICE, values];
  }

  /** A version-checked UPDATE, with the outbox CTEs when there are events; whether it wrote. */
  async function saveWithOutbox(name: string, text: string, values: unknown[], events: readonly unknown[]) {
    if (events.length === 0) return (await query(name, text, values)).rowCount === 1;
    const withEvents = updateWithOutbox(text, values.length + 1);
    const params = [...values, eventsParameter(events as Parameters<typeof eventsParameter>[0])];
    const { rows } = await query<{ written: number }>(`${name}_events`, withEvents, params);
    return rows[0]?.written === 1;
  }

  /** A list's cursor and limit as parameters; null when the page can hold nothing. */
  function pageParameters(projectId: string, page: ResourcePage): [string, string, number] | null {
    const limit = Math.floor(page.limit);
    if (!UUID.test(projectId) || !(limit > 0)) return null;
    if (page.before !== null && !UUID.test(page.before)) return null;
    return [projectId, page.before ?? NO_CURSOR, limit];
  }

  /** The statement for an invoice page: its status filter decides which index serves it. */
  function invoiceListStatement(page: InvoicePage): [string, string, unknown[]] {
    switch (page.status) {
      case null:
        return ["list_invoices", LIST_INVOICES, []];
      case "created":
        return ["list_invoices_open", LIST_INVOICES_OPEN, [page.now]];
      case "expired":
        return ["list_invoices_expired", LIST_INVOICES_EXPIRED, [page.now]];
      default:
        return ["list_invoices_in_status", LIST_INVOICES_IN_STATUS, [page.status]];
    }
  }

  return {
    saveProject: (project) =>
      run("saveProject", async () => {
        await query(
          "save_project",
          `INSERT INTO projects (id, name, provider, created_at) VALUES ($1, $2, $3, $4)
           ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, provider = EXCLUDED.provider`,
          [project.id, project.name, JSON.stringify(project.provider), project.createdAt],
        );
      }),

    findProject: (projectId) =>
      run("findProject", async () => {
        if (!UUID.test(projectId)) return null;
        const { rows } = await query(
          "find_project",
          `SELECT ${PROJECT_COLUMNS} FROM projects WHERE id = $1`,
          [projectId],
        );
        return rows[0] === undefined ? null : toProject(rows[0]);
      }),

    listProjects: () =>
      run("listProjects", async () => {
        const { rows } = await query(
          "list_projects",
          `SELECT ${PROJECT_COLUMNS} FROM projects ORDER BY created_at, id`,
          [],
        );
        return rows.map(toProject);
      }),

    addApiKey: (key) =>
      run("addApiKey", async () => {
        await query(
          "add_api_key",
          `INSERT INTO api_keys (id, project_id, sha256, created_at, revoked_at) VALUES ($1, $2, $3, $4, $5)
           ON CONFLICT (sha256) DO NOTHING`,
          [key.id, key.projectId, key.sha256, key.createdAt, key.revokedAt],
        );
      }),

    revokeApiKey: (sha256, revokedAt) =>
      run("revokeApiKey", async () => {
        // A key revoked twice keeps its first revocation time.
        const { rows } = await query(
          "revoke_api_key",
          "UPDATE api_keys SET revoked_at = COALESCE(revoked_at, $2) WHERE sha256 = $1 RETURNING id",
          [sha256, revokedAt],
        );
        return rows.length > 0;
      }),

    listApiKeys: (projectId) =>
      run("listApiKeys", async () => {
        if (!UUID.test(projectId)) return [];
        const { rows } = await query(
          "list_api_keys",
          `SELECT ${API_KEY_COLUMNS} FROM api_keys WHERE project_id = $1 ORDER BY created_at, id`,
          [projectId],
        );
        return rows.map(toApiKey);
      }),

    findProjectByKeyHash: (sha256) =>
      run("findProjectByKeyHash", async () => {
        const { rows } = await query(
          "find_project_by_key_hash",
          `SELECT k.id AS key_id, p.id, p.name, p.provider, p.created_at
             FROM api_keys k JOIN projects p ON p.id = k.project_id
            WHERE k.sha256 = $1 AND k.revoked_at IS NULL`,
          [sha256],
        );
        const row = rows[0];
        return row === undefined ? null : { project: toProject(row), keyId: String(row.key_id) };
      }),

    claimIdempotencyKey: (claim) =>
      run("claimIdempotencyKey", async () => {
        for (let attempt = 1; attempt <= maxClaimAttempts; attempt++) {
          const outcome = await claimOnce(claim);
          if (outcome !== null) return outcome;
        }
        throw new PortFailure({
          code: "storage_failed",
          message: `storage-postgres: claimIdempotencyKey kept racing concurrent changes (${maxClaimAttempts} attempts)`,
        });
      }),

    completeIdempotencyKey: (completion) =>
      run("completeIdempotencyKey", async () => {
        const [name, text, values] = completionStatement(completion);
        const { rows } = await query<{ completed: number; leased?: number }>(name, text, values);
        const row = rows[0];
        if (row?.completed === 1) return;
        // Without a resource there is no `leased` column: not completed means the lease was lost.
        if (row?.leased === 1) throw new PortFailure(conflict("completeIdempotencyKey", completion));
        throw new PortFailure(leaseLost(completion.projectId));
      }),

    createOnce: createOnceMethod(
      query,
      run,
      cipher,
      maxClaimAttempts,
      (error) => {
        throw new PortFailure(error);
      },
      options.createBatches === false ? null : createBatcher(query, options.createBatches),
    ),

    releaseIdempotencyKey: (release) =>
      run("releaseIdempotencyKey", async () => {
        await query("release", RELEASE, [release.projectId, release.key, release.leaseToken, release.now]);
      }),

    withdrawIdempotencyClaim: (withdrawal) =>
      run("withdrawIdempotencyClaim", async () => {
        await query("withdraw", WITHDRAW, [withdrawal.projectId, withdrawal.key, withdrawal.leaseToken]);
      }),

    purgeExpiredIdempotencyKeys: (now, limit) =>
      run("purgeExpiredIdempotencyKeys", async () => {
        if (limit <= 0) return 0;
        const result = await query("purge", PURGE, [now, Math.floor(limit)]);
        return result.rowCount ?? 0;
      }),

    findSubscription: (projectId, subscriptionId) =>
      run("findSubscription", async () => {
        if (!UUID.test(projectId) || !UUID.test(subscriptionId)) return null;
        const { rows } = await query(
          "find_subscription",
          `SELECT ${SUBSCRIPTION_COLUMNS} FROM subscriptions WHERE project_id = $1 AND id = $2`,
          [projectId, subscriptionId],
        );
        return rows[0] === undefined ? null : toSubscription(rows[0], cipher);
      }),

    findInvoice: (projectId, invoiceId) =>
      run("findInvoice", async () => {
        if (!UUID.test(projectId) || !UUID.test(invoiceId)) return null;
        const { rows } = await query(
          "find_invoice",
          `SELECT ${INVOICE_COLUMNS} FROM invoices WHERE project_id = $1 AND id = $2`,
          [projectId, invoiceId],
        );
        return rows[0] === undefined ? null : toInvoice(rows[0]);
      }),

    listSubscriptions: (projectId, page) =>
      run("listSubscriptions", async () => {
        const parameters = pageParameters(projectId, page);
        if (parameters === null) return [];
        const { rows } = await query("list_subscriptions", LIST_SUBSCRIPTIONS, parameters);
        return rows.map((row) => toSubscription(row, cipher));
      }),

    listInvoices: (projectId, page) =>
      run("listInvoices", async () => {
        const parameters = pageParameters(projectId, page);
        if (parameters === null) return [];
        const [name, text, filter] = invoiceListStatement(page);
        const { rows } = await query(name, text, [...parameters, ...filter]);
        return rows.map(toInvoice);
      }),

    claimDueSubscriptions: (claim) =>
      run("claimDueSubscriptions", async () => {
        const limit = Math.floor(claim.limit);
        if (!(limit > 0)) return [];
        const { rows } = await query("claim_due_subscriptions", CLAIM_DUE_SUBSCRIPTIONS, [
          claim.now,
          limit,
          claim.leaseToken,
          claim.leaseExpiresAt,
        ]);
        return rows.map((row) => toSubscription(row, cipher));
      }),

    saveSubscription: (subscription, events) =>
      run("saveSubscription", async () => {
        const values = [subscription.projectId, ...subscriptionValues(subscription, cipher)];
        if (!(await saveWithOutbox("save_subscription", SAVE_SUBSCRIPTION, values, events)))
          throw new PortFailure(conflict("saveSubscription", subscription));
      }),

    saveInvoice: (invoice, events) =>
      run("saveInvoice", async () => {
        const values = [invoice.projectId, ...invoiceValues(invoice)];
        if (invoice.version < 2 || !(await saveWithOutbox("save_invoice", SAVE_INVOICE, values, events)))
          throw new PortFailure(conflict("saveInvoice", invoice));
      }),

    findInvoiceById: (invoiceId) =>
      run("findInvoiceById", async () => {
        if (!UUID.test(invoiceId)) return null;
        const { rows } = await query(
          "find_invoice_by_id",
          `SELECT ${INVOICE_COLUMNS} FROM invoices WHERE id = $1`,
          [invoiceId],
        );
        return rows[0] === undefined ? null : toInvoice(rows[0]);
      }),

    listLapsedInvoices: (now, limit) =>
      run("listLapsedInvoices", async () => {
        const { rows } = await query(
          "list_lapsed_invoices",
          `SELECT ${INVOICE_COLUMNS} FROM invoices WHERE status = 'created' AND expires_at <= $1
            ORDER BY expires_at LIMIT $2`,
          [now, Math.max(0, Math.floor(limit))],
        );
        return rows.map(toInvoice);
      }),

    ...outboxMethods(query, run, cipher, (error) => {
      throw new PortFailure(error);
    }),

    checkHealth: () =>
      run("checkHealth", async () => {
        await query("check_health", "SELECT 1", []);
      }),

    async inspect() {
      const tables: Record<string, Record<string, unknown>[]> = {};
      for (const [table, order] of Object.entries(INSPECTED_TABLES)) {
        tables[table] = (await pool.query(`SELECT * FROM ${table} ORDER BY ${order}`)).rows;
      }
      return tables;
    },
  };
}
