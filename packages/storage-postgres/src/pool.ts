import type { QueryConfig, QueryResult, QueryResultRow } from "pg";

/**
 * The part of a `pg.Pool` the adapter uses. A `pg.Pool` satisfies it; so does a pool over PGlite's
 * `node-postgres` connection in tests. The caller owns the pool and ends it.
 */
export interface PostgresPool {
  query<R extends QueryResultRow = QueryResultRow>(config: QueryConfig | string): Promise<QueryResult<R>>;
  connect(): Promise<PostgresPoolClient>;
}

export interface PostgresPoolClient {
  query<R extends QueryResultRow = QueryResultRow>(config: QueryConfig | string): Promise<QueryResult<R>>;
  /** `release(true)` destroys the connection instead of returning it to the pool. */
  release(destroy?: boolean | Error): void;
  /**
   * A checked-out client reports a lost connection (PostgreSQL restarted, the backend terminated) as
   * an `error` event: unheard, it would end the process. `pg.PoolClient` has these.
   */
  on?(event: "error", listener: (error: Error) => void): unknown;
  off?(event: "error", listener: (error: Error) => void): unknown;
}
