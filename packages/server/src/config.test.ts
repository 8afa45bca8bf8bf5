import { describe, expect, test } from "vitest";
import { loadConfig } from "./config.js";

describe("loadConfig", () => {
  test("defaults (API.md 8)", () => {
    expect(loadConfig({})._unsafeUnwrap()).toEqual({
      host: "127.0.0.1",
      port: 3000,
      projectsFile: null,
      publicUrl: "http://127.0.0.1:3000",
      rateLimitPerSecond: 100,
      logLevel: "info",
      databaseUrl: null,
      encryptionKey: null,
      worker: true,
    });
  });

  test("values as given; the public URL follows HOST and PORT unless set", () => {
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
      publicUrl: "http://0.0.0.0:8080",
      rateLimitPerSecond: 0,
      worker: false,
      logLevel: "debug",
    });
    expect(loadConfig({ HOST: "::1", PORT: "0" })._unsafeUnwrap().publicUrl).toBe("http://[::1]:0");
    expect(loadConfig({ KOPEK_PUBLIC_URL: "https://pay.example.com" })._unsafeUnwrap().publicUrl).toBe(
      "https://pay.example.com",
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

  test.each([
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
    [{ KOPEK_ENCRYPTION_KEY: "c2hvcnQtc2VjcmV0" }, "KOPEK_ENCRYPTION_KEY must be 32 random bytes in base64"],
  ])("a secret is named but never echoed: %j", (env, message) => {
    const error = loadConfig(env)._unsafeUnwrapErr();
    expect(error).toBe(message + (message.endsWith("base64") ? " (openssl rand -base64 32)" : ""));
    expect(error).not.toMatch(/hunter2|c2hvcnQ/);
  });
});
