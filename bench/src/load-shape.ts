/** One request shape: the path, the body, and whether every request gets a fresh Idempotency-Key. */
export interface LoadShape {
  readonly path: string;
  readonly body: string;
  readonly apiKey: string;
  /** null: a new key per request; a string: that one key on every request (replays). */
  readonly fixedKey: string | null;
}

/** What a load generator (wrk or autocannon) reports for one run. */
export interface LoadFigures {
  readonly completed: number;
  readonly seconds: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly non2xx: number;
  /** Connection errors and timeouts. */
  readonly errors: number;
  /** The slowest of the connections' first answers, ms (the closed-loop client only). */
  readonly firstAnswerMaxMs?: number;
}
