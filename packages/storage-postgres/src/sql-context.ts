import type { StorageError } from "@kopek/core";
import { ResultAsync } from "neverthrow";
import type { QueryResultRow } from "pg";
import type { PostgresPool } from "./pool.js";
import { isUnavailable, toStorageError } from "./storage-errors.js";
import type { TokenCipher } from "./token-cipher.js";

/** A named prepared statement's run: parsed once per connection, then a single round trip each. */
export type Query = <R extends QueryResultRow>(
  name: string,
  text: string,
  values: unknown[],
) => Promise<{ rows: R[]; rowCount: number | null }>;

/** What every part of the adapter works with: its statements, its error translation, its cipher. */
export interface SqlContext {
  readonly query: Query;
  /** Runs an operation's work with every failure translated to a port error. */
  run<T>(operation: string, work: () => Promise<T>): ResultAsync<T, StorageError>;
  /** Ends the operation `run` is running with this port error instead of a translated one. */
  fail(error: StorageError): never;
  /** Encrypts method tokens and webhook secrets at rest. */
  readonly cipher: TokenCipher;
  /** How often a statement that lost a race with a concurrent change is re-run before failing. */
  readonly maxAttempts: number;
  /**
   * Runs `work` in one transaction on one connection, its statements through the `query` it is given:
   * committed when it returns, rolled back when it throws (a `fail` among them).
   */
  transaction<T>(work: (query: Query) => Promise<T>): Promise<T>;
  /**
   * Runs one deliberate read across every project (a background scan, the legacy lookup of an invoice
   * by id alone): on Citus it is the one kind of statement allowed to reach every shard, so it runs
   * with `citus.multi_task_query_log_level` off, wherever an operator turned that into an error.
   */
  acrossProjects<R extends QueryResultRow>(name: string, text: string, values: unknown[]): Promise<R[]>;
}

/** Ends where `acrossProjects` may fan out (a setting of the transaction only; a no-op without Citus). */
const FAN_OUT_ALLOWED = "SET LOCAL citus.multi_task_query_log_level TO 'off'";

/** Thrown by `fail` inside an operation, and turned back into its port error by `run`. */
class PortFailure {
  constructor(readonly error: StorageError) {}
}

export function createSqlContext(pool: PostgresPool, cipher: TokenCipher, maxAttempts: number): SqlContext {
  const context: SqlContext = {
    query: (name, text, values) => pool.query({ name: `kopek_${name}`, text, values }),
    run: (operation, work) =>
      ResultAsync.fromPromise(work(), (error) =>
        error instanceof PortFailure ? error.error : toStorageError(operation, error),
      ),
    fail(error) {
      throw new PortFailure(error);
    },
    cipher,
    maxAttempts,
    async transaction(work) {
      const client = await pool.connect();
      let broken = false;
      // Heard while checked out: the statement in flight fails on its own, and the client is dropped.
      const lost = () => {
        broken = true;
      };
      client.on?.("error", lost);
      try {
        await client.query("BEGIN");
        const result = await work((name, text, values) =>
          client.query({ name: `kopek_${name}`, text, values }),
        );
        await client.query("COMMIT");
        return result;
      } catch (error) {
        // A connection the server cannot serve on (gone, or no longer the primary: 25006 after a
        // failover) is destroyed, so the next caller connects afresh through the endpoint; so is one
        // whose rollback failed, never handed to the next caller mid-transaction. (`pool.query`
        // destroys a connection after any error by itself.)
        if (isUnavailable(error)) broken = true;
        await client.query("ROLLBACK").catch(() => {
          broken = true;
        });
        throw error;
      } finally {
        client.off?.("error", lost);
        client.release(broken);
      }
    },
    acrossProjects: <R extends QueryResultRow>(name: string, text: string, values: unknown[]) =>
      context.transaction(async (query) => {
        await query("fan_out_allowed", FAN_OUT_ALLOWED, []);
        return (await query<R>(name, text, values)).rows;
      }),
  };
  return context;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether an id can be a uuid column's value: any other id finds nothing (and would fail the cast). */
export const isUuid = (id: string): boolean => UUID.test(id);
