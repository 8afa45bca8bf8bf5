import { describe, expect, test } from "vitest";
import { loadConfig } from "./config.js";

describe("loadConfig", () => {
  test("defaults (API.md 8)", () => {
    expect(loadConfig({})._unsafeUnwrap()).toEqual({
      host: "127.0.0.1",
      port: 3000,
      projectsFile: null,
      publicUrl: null,
      rateLimitPerSecond: 100,
      failedAuthPerIpPerMinute: 60,
      publicPerIpPerMinute: 600,
      trustProxy: [],
      redisUrl: null,
      logLevel: "info",
      logFormat: "json",
      databaseUrl: null,
      encryptionKey: null,
      encryptionKeyFile: ".kopek/encryption.key",
      encryptionOldKeys: [],
      metrics: true,
      metricsListen: null,
      metricsToken: null,
      worker: true,
      workerIntervalMs: 5000,
      dunning: { retryOffsetsMs: [86_400_000, 259_200_000, 432_000_000], outageRetryMs: 300_000 },
      testClockFile: null,
      sandboxLedgerFile: null,
      sandboxLatencyMs: 0,
      idempotencyLeaseMs: null,
      idempotencyTtlMs: null,
      formSecret: null,
    });
  });

  test("KOPEK_FORM_SECRET: at least 32 characters, never echoed", () => {
    const secret = "f".repeat(32);
    expect(loadConfig({ KOPEK_FORM_SECRET: secret })._unsafeUnwrap().formSecret).toBe(secret);
    expect(loadConfig({ KOPEK_FORM_SECRET: "short-secret" })._unsafeUnwrapErr()).toBe(
      "KOPEK_FORM_SECRET must be at least 32 characters (openssl rand -base64 32), the same on every instance",
    );
  });

  test("values as given; the public URL is only set by KOPEK_PUBLIC_URL (else it follows the bound port)", () => {
    const config = loadConfig({
      HOST: "0.0.0.0",
      PORT: "8080",
      KOPEK_RATE_LIMIT: "0",
      KOPEK_WORKER: "off",
      LOG_LEVEL: "debug",
    });
    expect(config._unsafeUnwrap()).toMatchObject({
      host: "0.0.0.0",
      port: 8080,
      publicUrl: null,
      rateLimitPerSecond: 0,
      worker: false,
      logLevel: "debug",
    });
    expect(loadConfig({ KOPEK_PUBLIC_URL: "https://pay.example.com" })._unsafeUnwrap().publicUrl).toBe(
      "https://pay.example.com",
    );
  });

  test("KOPEK_TRUST_PROXY: addresses and CIDRs; true, a hop count or a bad CIDR refuse to start", () => {
    expect(
      loadConfig({ KOPEK_TRUST_PROXY: "10.0.0.0/8, 192.0.2.1,fd00::/8,::1,loopback" })._unsafeUnwrap()
        .trustProxy,
    ).toEqual(["10.0.0.0/8", "192.0.2.1", "fd00::/8", "::1", "loopback"]);
    for (const bad of [
      "true",
      "*",
      "1",
      "10.0.0.0/33",
      "10.0.0/8",
      "fd00::/129",
      "10.0.0.0/8,",
      "proxy.local",
    ])
      expect(loadConfig({ KOPEK_TRUST_PROXY: bad })._unsafeUnwrapErr()).toBe(
        `KOPEK_TRUST_PROXY must be proxy IP addresses or CIDRs separated by commas (e.g. 10.0.0.0/8,::1), not true: trusting every peer would let any client choose its address, got ${JSON.stringify(bad)}`,
      );
  });

  test("KOPEK_METRICS_LISTEN is host:port; KOPEK_METRICS_TOKEN at least 16 characters, never echoed", () => {
    expect(loadConfig({ KOPEK_METRICS_LISTEN: "10.0.0.5:9464" })._unsafeUnwrap().metricsListen).toEqual({
      host: "10.0.0.5",
      port: 9464,
    });
    expect(loadConfig({ KOPEK_METRICS_LISTEN: "[::1]:0" })._unsafeUnwrap().metricsListen).toEqual({
      host: "::1",
      port: 0,
    });
    for (const bad of ["9464", "10.0.0.5", "10.0.0.5:65536", "::1:9464", "[nope]:1", "host:port"])
      expect(loadConfig({ KOPEK_METRICS_LISTEN: bad })._unsafeUnwrapErr()).toBe(
        `KOPEK_METRICS_LISTEN must be host:port (e.g. 10.0.0.5:9464 or [::1]:9464), the port from 0 to 65535, got ${JSON.stringify(bad)}`,
      );
    const token = "t".repeat(16);
    expect(loadConfig({ KOPEK_METRICS_TOKEN: token })._unsafeUnwrap().metricsToken).toBe(token);
    expect(
      loadConfig({ KOPEK_METRICS: "off", KOPEK_METRICS_LISTEN: "127.0.0.1:9464" })._unsafeUnwrapErr(),
    ).toBe("KOPEK_METRICS_LISTEN is set but KOPEK_METRICS=off: there is no /metrics to serve");
    expect(loadConfig({ KOPEK_METRICS_TOKEN: "short secret" })._unsafeUnwrapErr()).toBe(
      "KOPEK_METRICS_TOKEN must be at least 16 printable characters without spaces (openssl rand -hex 32)",
    );
  });

  test("an empty variable counts as unset", () => {
    expect(loadConfig({ PORT: "", KOPEK_PROJECTS_FILE: "" })._unsafeUnwrap()).toMatchObject({
      port: 3000,
      projectsFile: null,
    });
  });

  test("a valid encryption key is decoded to 32 bytes", () => {
    const key = Buffer.alloc(32, 7).toString("base64");
    expect(loadConfig({ KOPEK_ENCRYPTION_KEY: key })._unsafeUnwrap().encryptionKey?.length).toBe(32);
  });

  test("testing aids, the lease and the key file", () => {
    const old = [Buffer.alloc(32, 1), Buffer.alloc(32, 2)];
    const config = loadConfig({
      KOPEK_SANDBOX_LEDGER_FILE: "/tmp/ledger.jsonl",
      KOPEK_SANDBOX_LATENCY_MS: "250",
      KOPEK_IDEMPOTENCY_LEASE_MS: "1500",
      KOPEK_IDEMPOTENCY_TTL_MS: "2000",
      KOPEK_ENCRYPTION_KEY_FILE: "/etc/kopek/key",
      KOPEK_ENCRYPTION_OLD_KEYS: old.map((key) => key.toString("base64")).join(","),
    });
    expect(config._unsafeUnwrap()).toMatchObject({
      sandboxLedgerFile: "/tmp/ledger.jsonl",
      sandboxLatencyMs: 250,
      idempotencyLeaseMs: 1500,
      idempotencyTtlMs: 2000,
      encryptionKeyFile: "/etc/kopek/key",
      encryptionOldKeys: old,
    });
  });

  test("the renewal worker's interval and the dunning schedule", () => {
    const config = loadConfig({
      KOPEK_WORKER_INTERVAL_MS: "50",
      KOPEK_DUNNING_RETRIES: "12h,2d",
      KOPEK_OUTAGE_RETRY: "30s",
    });
    expect(config._unsafeUnwrap()).toMatchObject({
      workerIntervalMs: 50,
      dunning: { retryOffsetsMs: [43_200_000, 172_800_000], outageRetryMs: 30_000 },
    });
  });

  test("the test clock file only with NODE_ENV=test", () => {
    const file = { KOPEK_TEST_CLOCK_FILE: "/tmp/clock" };
    expect(loadConfig({ ...file, NODE_ENV: "test" })._unsafeUnwrap().testClockFile).toBe("/tmp/clock");
    for (const nodeEnv of [undefined, "production", "development"]) {
      expect(loadConfig({ ...file, NODE_ENV: nodeEnv })._unsafeUnwrapErr()).toBe(
        "KOPEK_TEST_CLOCK_FILE is a testing aid and is refused unless NODE_ENV=test",
      );
    }
  });

  test.each([
    [{ KOPEK_WORKER_INTERVAL_MS: "5" }, "KOPEK_WORKER_INTERVAL_MS must be an integer from 10 to 3600000"],
    [{ KOPEK_WORKER_INTERVAL_MS: "1s" }, "KOPEK_WORKER_INTERVAL_MS must be an integer from 10 to 3600000"],
    [{ KOPEK_DUNNING_RETRIES: "3d,1d" }, "KOPEK_DUNNING_RETRIES must be increasing durations"],
    [{ KOPEK_DUNNING_RETRIES: "1 day" }, 'got "1 day"'],
    [
      { KOPEK_OUTAGE_RETRY: "0m" },
      'KOPEK_OUTAGE_RETRY must be a whole number and s, m, h or d (e.g. 5m), got "0m"',
    ],
    [{ KOPEK_IDEMPOTENCY_LEASE_MS: "0" }, "KOPEK_IDEMPOTENCY_LEASE_MS must be an integer from 1 to 60000"],
    [
      { KOPEK_IDEMPOTENCY_LEASE_MS: "60001" },
      "KOPEK_IDEMPOTENCY_LEASE_MS must be an integer from 1 to 60000",
    ],
    [{ KOPEK_SANDBOX_LATENCY_MS: "slow" }, "KOPEK_SANDBOX_LATENCY_MS must be an integer of 0 or more"],
    [
      { KOPEK_IDEMPOTENCY_TTL_MS: "999" },
      "KOPEK_IDEMPOTENCY_TTL_MS must be an integer from 1000 to 86400000",
    ],
    [{ KOPEK_IDEMPOTENCY_TTL_MS: "1d" }, "KOPEK_IDEMPOTENCY_TTL_MS must be an integer from 1000 to 86400000"],
    [{ PORT: "abc" }, 'PORT must be an integer from 0 to 65535, got "abc"'],
    [{ PORT: "65536" }, 'PORT must be an integer from 0 to 65535, got "65536"'],
    [{ PORT: "-1" }, "PORT must be an integer from 0 to 65535"],
    [{ PORT: "80.5" }, "PORT must be an integer from 0 to 65535"],
    [
      { KOPEK_RATE_LIMIT: "-5" },
      'KOPEK_RATE_LIMIT must be an integer of 0 or more (0 turns rate limiting off), got "-5"',
    ],
    [{ KOPEK_RATE_LIMIT: "fast" }, "KOPEK_RATE_LIMIT must be an integer"],
    [
      { KOPEK_PUBLIC_URL: "pay.example.com" },
      'KOPEK_PUBLIC_URL must be an absolute http:// or https:// URL, got "pay.example.com"',
    ],
    [{ KOPEK_PUBLIC_URL: "ftp://x.example" }, "KOPEK_PUBLIC_URL must be an absolute http:// or https:// URL"],
    [
      { LOG_LEVEL: "verbose" },
      'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got "verbose"',
    ],
    [{ KOPEK_WORKER: "yes" }, 'KOPEK_WORKER must be on or off, got "yes"'],
    [{ HOST: "bad host" }, "HOST must be a host name or IP address"],
  ])("%j is refused with one line naming the variable", (env, message) => {
    const error = loadConfig(env)._unsafeUnwrapErr();
    expect(error).toContain(message);
    expect(error).not.toContain("\n");
  });

  test.each([
    [{ DATABASE_URL: "mysql://user:hunter2@db/kopek" }, "DATABASE_URL must be a postgres:// URL"],
    [
      { KOPEK_ENCRYPTION_KEY: "c2hvcnQtc2VjcmV0" },
      "KOPEK_ENCRYPTION_KEY must be 32 random bytes in base64 (openssl rand -base64 32)",
    ],
    [
      { KOPEK_ENCRYPTION_OLD_KEYS: `${Buffer.alloc(32).toString("base64")},c2hvcnQtc2VjcmV0` },
      "KOPEK_ENCRYPTION_OLD_KEYS must be comma-separated keys, each 32 random bytes in base64",
    ],
  ])("a secret is named but never echoed: %j", (env, message) => {
    const error = loadConfig(env)._unsafeUnwrapErr();
    expect(error).toBe(message);
    expect(error).not.toMatch(/hunter2|c2hvcnQ|AAAA/);
  });
});
