/** How long the HTTP server waits on a client, in milliseconds (docs/api.md §9, "Timeouts"). */
export interface ServerTimeouts {
  /** The request line and every header must have arrived by then (slow-loris), else 408. */
  readonly headersMs: number;
  /** The whole request, body included, must have arrived by then, else 408. */
  readonly requestMs: number;
  /** A socket with no traffic at all for this long is closed. */
  readonly idleSocketMs: number;
  /** An idle keep-alive connection is closed after this; above the 60 s of common load balancers. */
  readonly keepAliveMs: number;
  /** How often Node checks the header and request deadlines. */
  readonly checkIntervalMs: number;
}

export const DEFAULT_SERVER_TIMEOUTS: ServerTimeouts = {
  headersMs: 10_000,
  requestMs: 30_000,
  idleSocketMs: 120_000,
  keepAliveMs: 65_000,
  checkIntervalMs: 1000,
};

/** The timeouts as Fastify's options; `headersTimeout` has no Fastify option and is set on the server. */
export function fastifyTimeoutOptions(timeouts: ServerTimeouts) {
  return {
    connectionTimeout: timeouts.idleSocketMs,
    requestTimeout: timeouts.requestMs,
    keepAliveTimeout: timeouts.keepAliveMs,
    http: { connectionsCheckingInterval: timeouts.checkIntervalMs, headersTimeout: timeouts.headersMs },
  };
}
