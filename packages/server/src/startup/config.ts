import { DEFAULT_DUNNING_POLICY, type DunningPolicy } from "@kopek/core";
import { err, ok, type Result } from "neverthrow";
import { z } from "zod";
import {
  DEFAULT_FAILED_AUTH_PER_IP_PER_MINUTE,
  DEFAULT_PUBLIC_PER_IP_PER_MINUTE,
  DEFAULT_RATE_LIMIT_PER_SECOND,
} from "../limits/rate-limit-defaults.js";
import {
  base64Keys,
  digits,
  duration,
  httpUrl,
  listenAddress,
  proxyAddresses,
  retrySchedule,
} from "./env-values.js";

export const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;
/** How log lines are written: JSON (the default, for machines) or readable by people (pino-pretty). */
export const LOG_FORMATS = ["json", "pretty"] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

/** The server's settings, read from the environment (API.md 8). */
export interface Config {
  readonly host: string;
  readonly port: number;
  readonly projectsFile: string | null;
  /** Base of `paymentUrl` (KOPEK_PUBLIC_URL); null: where the server listens, with the bound port. */
  readonly publicUrl: string | null;
  readonly rateLimitPerSecond: number;
  /** Failed authentications per client IP per minute (KOPEK_RATE_LIMIT_UNAUTHENTICATED); 0: off. */
  readonly failedAuthPerIpPerMinute: number;
  /** Requests to the page, notifications and health per client IP per minute (KOPEK_RATE_LIMIT_PUBLIC). */
  readonly publicPerIpPerMinute: number;
  /** The proxies whose X-Forwarded-For names the client (KOPEK_TRUST_PROXY); empty: none, the peer is the client. */
  readonly trustProxy: readonly string[];
  /** Where instances share their rate-limit counters (REDIS_URL); null: PostgreSQL when on it, else memory. */
  readonly redisUrl: string | null;
  readonly logLevel: (typeof LOG_LEVELS)[number];
  /** `json` lines (the default) or `pretty` ones for a developer's terminal. */
  readonly logFormat: LogFormat;
  readonly databaseUrl: string | null;
  /** The 32-byte key for method tokens at rest (KOPEK_ENCRYPTION_KEY, base64). */
  readonly encryptionKey: Buffer | null;
  /** Where the key is kept (created if missing) when KOPEK_ENCRYPTION_KEY is unset. */
  readonly encryptionKeyFile: string;
  /** Retired keys still accepted for decryption (KOPEK_ENCRYPTION_OLD_KEYS): rotation. */
  readonly encryptionOldKeys: readonly Buffer[];
  /** Whether `serve` answers `GET /metrics` (KOPEK_METRICS). */
  readonly metrics: boolean;
  /** Where /metrics is served instead of the API's port (KOPEK_METRICS_LISTEN); null: on the API's port. */
  readonly metricsListen: { readonly host: string; readonly port: number } | null;
  /** The bearer token a scrape of /metrics must send (KOPEK_METRICS_TOKEN); null: none. */
  readonly metricsToken: string | null;
  /** Whether `serve` runs the renewal worker (KOPEK_WORKER). */
  readonly worker: boolean;
  /** How often the renewal worker looks for due subscriptions. */
  readonly workerIntervalMs: number;
  /** When declined renewals are retried, and how soon after an outage. */
  readonly dunning: DunningPolicy;
  /** A testing aid (NODE_ENV=test only): the server's clock reads its time from this file. */
  readonly testClockFile: string | null;
  /** A testing aid: the sandbox's charges as a JSON-lines file, shared across processes and restarts. */
  readonly sandboxLedgerFile: string | null;
  /** A testing aid: how long the sandbox takes to answer. */
  readonly sandboxLatencyMs: number;
  /** How long an executing request holds its idempotency key; null: core's default. */
  readonly idempotencyLeaseMs: number | null;
  /** How long idempotency keys are remembered (default: core's 24 h); shorter for load tests. */
  readonly idempotencyTtlMs: number | null;
  /** Signs the payment form's CSRF tokens (KOPEK_FORM_SECRET); null: derived, see pay/form-secret.ts. */
  readonly formSecret: string | null;
}

const schema = z.object({
  HOST: z
    .string()
    .regex(/^[^\s/]+$/, "must be a host name or IP address")
    .default("127.0.0.1"),
  PORT: digits("must be an integer from 0 to 65535")
    .pipe(z.number().max(65535, "must be an integer from 0 to 65535"))
    .default(3000),
  KOPEK_PROJECTS_FILE: z.string().optional(),
  KOPEK_PUBLIC_URL: httpUrl("must be an absolute http:// or https:// URL").optional(),
  KOPEK_RATE_LIMIT: digits("must be an integer of 0 or more (0 turns rate limiting off)").default(
    DEFAULT_RATE_LIMIT_PER_SECOND,
  ),
  KOPEK_RATE_LIMIT_UNAUTHENTICATED: digits("must be an integer of 0 or more (0 turns it off)").default(
    DEFAULT_FAILED_AUTH_PER_IP_PER_MINUTE,
  ),
  KOPEK_RATE_LIMIT_PUBLIC: digits("must be an integer of 0 or more (0 turns it off)").default(
    DEFAULT_PUBLIC_PER_IP_PER_MINUTE,
  ),
  KOPEK_TRUST_PROXY: proxyAddresses(
    "must be proxy IP addresses or CIDRs separated by commas (e.g. 10.0.0.0/8,::1), not true: trusting every peer would let any client choose its address",
  ).optional(),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, "must be a redis:// or rediss:// URL")
    .optional(),
  LOG_LEVEL: z.enum(LOG_LEVELS, `must be one of ${LOG_LEVELS.join(", ")}`).default("info"),
  LOG_FORMAT: z.enum(LOG_FORMATS, "must be json or pretty").default("json"),
  DATABASE_URL: z
    .string()
    .refine((value) => /^postgres(ql)?:$/.test(URL.parse(value)?.protocol ?? ""), "must be a postgres:// URL")
    .optional(),
  KOPEK_ENCRYPTION_KEY: base64Keys("must be 32 random bytes in base64 (openssl rand -base64 32)")
    .refine((keys) => keys.length === 1, "must be one key (old ones go in KOPEK_ENCRYPTION_OLD_KEYS)")
    .optional(),
  KOPEK_ENCRYPTION_KEY_FILE: z.string().default(".kopek/encryption.key"),
  KOPEK_ENCRYPTION_OLD_KEYS: base64Keys(
    "must be comma-separated keys, each 32 random bytes in base64",
  ).optional(),
  KOPEK_WORKER: z.enum(["on", "off"], "must be on or off").default("on"),
  KOPEK_METRICS: z.enum(["on", "off"], "must be on or off").default("on"),
  KOPEK_METRICS_LISTEN: listenAddress(
    "must be host:port (e.g. 10.0.0.5:9464 or [::1]:9464), the port from 0 to 65535",
  ).optional(),
  KOPEK_METRICS_TOKEN: z
    .string()
    .regex(
      /^[\x21-\x7e]{16,}$/,
      "must be at least 16 printable characters without spaces (openssl rand -hex 32)",
    )
    .optional(),
  KOPEK_WORKER_INTERVAL_MS: digits("must be an integer from 10 to 3600000 (milliseconds)")
    .pipe(
      z
        .number()
        .min(10, "must be an integer from 10 to 3600000 (milliseconds)")
        .max(3_600_000, "must be an integer from 10 to 3600000 (milliseconds)"),
    )
    .default(5000),
  KOPEK_DUNNING_RETRIES: retrySchedule(
    "must be increasing durations separated by commas, each a whole number and s, m, h or d (e.g. 1d,3d,5d)",
  ).default(() => [...DEFAULT_DUNNING_POLICY.retryOffsetsMs]),
  KOPEK_OUTAGE_RETRY: duration("must be a whole number and s, m, h or d (e.g. 5m)").default(
    DEFAULT_DUNNING_POLICY.outageRetryMs,
  ),
  KOPEK_FORM_SECRET: z
    .string()
    .min(32, "must be at least 32 characters (openssl rand -base64 32), the same on every instance")
    .optional(),
  KOPEK_TEST_CLOCK_FILE: z.string().optional(),
  KOPEK_SANDBOX_LEDGER_FILE: z.string().optional(),
  KOPEK_SANDBOX_LATENCY_MS: digits("must be an integer of 0 or more (milliseconds)").default(0),
  KOPEK_IDEMPOTENCY_LEASE_MS: digits("must be an integer from 1 to 60000 (milliseconds)")
    .pipe(
      z
        .number()
        .min(1, "must be an integer from 1 to 60000 (milliseconds)")
        .max(60_000, "must be an integer from 1 to 60000 (milliseconds)"),
    )
    .optional(),
  KOPEK_IDEMPOTENCY_TTL_MS: digits("must be an integer from 1000 to 86400000 (milliseconds)")
    .pipe(
      z
        .number()
        .min(1000, "must be an integer from 1000 to 86400000 (milliseconds)")
        .max(86_400_000, "must be an integer from 1000 to 86400000 (milliseconds)"),
    )
    .optional(),
});

// Never echoed back: a password in the URL or the key itself would land in a terminal or a log.
const SECRET = new Set([
  "DATABASE_URL",
  "REDIS_URL",
  "KOPEK_ENCRYPTION_KEY",
  "KOPEK_ENCRYPTION_OLD_KEYS",
  "KOPEK_FORM_SECRET",
  "KOPEK_METRICS_TOKEN",
]);

/** Reads and checks the environment; the error is one line naming the variable, what it must be and what it got. */
export function loadConfig(env: Readonly<Record<string, string | undefined>>): Result<Config, string> {
  // An empty variable counts as unset, as `PORT= kopek serve` or an empty line in a .env file mean.
  const present = Object.fromEntries(
    Object.entries(env).filter(([name, value]) => name in schema.shape && value !== ""),
  );
  const parsed = schema.safeParse(present);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const name = String(issue?.path[0] ?? "environment");
    const got = SECRET.has(name) ? "" : `, got ${JSON.stringify(present[name])}`;
    return err(`${name} ${issue?.message ?? "is invalid"}${got}`);
  }
  const vars = parsed.data;
  // A setting that would silently do nothing is refused: the operator believes /metrics is guarded.
  for (const name of ["KOPEK_METRICS_LISTEN", "KOPEK_METRICS_TOKEN"] as const)
    if (vars[name] !== undefined && vars.KOPEK_METRICS === "off")
      return err(`${name} is set but KOPEK_METRICS=off: there is no /metrics to serve`);
  // A clock an environment variable can move must never reach production by accident.
  if (vars.KOPEK_TEST_CLOCK_FILE !== undefined && env.NODE_ENV !== "test") {
    return err("KOPEK_TEST_CLOCK_FILE is a testing aid and is refused unless NODE_ENV=test");
  }
  return ok({
    host: vars.HOST,
    port: vars.PORT,
    projectsFile: vars.KOPEK_PROJECTS_FILE ?? null,
    publicUrl: vars.KOPEK_PUBLIC_URL ?? null,
    rateLimitPerSecond: vars.KOPEK_RATE_LIMIT,
    failedAuthPerIpPerMinute: vars.KOPEK_RATE_LIMIT_UNAUTHENTICATED,
    publicPerIpPerMinute: vars.KOPEK_RATE_LIMIT_PUBLIC,
    trustProxy: vars.KOPEK_TRUST_PROXY ?? [],
    redisUrl: vars.REDIS_URL ?? null,
    logLevel: vars.LOG_LEVEL,
    logFormat: vars.LOG_FORMAT,
    databaseUrl: vars.DATABASE_URL ?? null,
    encryptionKey: vars.KOPEK_ENCRYPTION_KEY?.[0] ?? null,
    encryptionKeyFile: vars.KOPEK_ENCRYPTION_KEY_FILE,
    encryptionOldKeys: vars.KOPEK_ENCRYPTION_OLD_KEYS ?? [],
    worker: vars.KOPEK_WORKER === "on",
    metrics: vars.KOPEK_METRICS === "on",
    metricsListen: vars.KOPEK_METRICS_LISTEN ?? null,
    metricsToken: vars.KOPEK_METRICS_TOKEN ?? null,
    workerIntervalMs: vars.KOPEK_WORKER_INTERVAL_MS,
    dunning: { retryOffsetsMs: vars.KOPEK_DUNNING_RETRIES, outageRetryMs: vars.KOPEK_OUTAGE_RETRY },
    testClockFile: vars.KOPEK_TEST_CLOCK_FILE ?? null,
    sandboxLedgerFile: vars.KOPEK_SANDBOX_LEDGER_FILE ?? null,
    sandboxLatencyMs: vars.KOPEK_SANDBOX_LATENCY_MS,
    idempotencyLeaseMs: vars.KOPEK_IDEMPOTENCY_LEASE_MS ?? null,
    idempotencyTtlMs: vars.KOPEK_IDEMPOTENCY_TTL_MS ?? null,
    formSecret: vars.KOPEK_FORM_SECRET ?? null,
  });
}
