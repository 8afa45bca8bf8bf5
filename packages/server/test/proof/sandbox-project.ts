import { randomUUID } from "node:crypto";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { generateApiKey, hashApiKey } from "@kopek/core";
import { type CliProcess, spawnCli } from "../cli-process.js";

/**
 * `kopek sandbox-provider` in its own process, its charges in `ledgerFile`, so they can be counted
 * across every Kopek process and crash. Resolves once it listens.
 */
export async function startSandboxProviderProcess(ledgerFile: string, latencyMs: number) {
  const cli: CliProcess = spawnCli([
    "sandbox-provider",
    "--port",
    "0",
    "--ledger",
    ledgerFile,
    "--latency-ms",
    String(latencyMs),
  ]);
  const [, url = ""] = await cli.waitFor(/"url":"([^"]+)".*"sandbox provider listening"/, 30_000);
  return { cli, url };
}

/**
 * A projects file in `dir` with one project on the sandbox provider at `providerUrl` (the `http`
 * kind) and a new API key; answers the key and the file's path for KOPEK_PROJECTS_FILE.
 */
export async function writeSandboxProject(
  dir: string,
  name: string,
  provider: { readonly url: string; readonly [setting: string]: unknown },
) {
  const apiKey = generateApiKey();
  const projectsFile = join(dir, "projects.json");
  const project = {
    id: randomUUID(),
    name,
    provider: { kind: "http", ...provider },
    apiKeys: [{ sha256: hashApiKey(apiKey) }],
  };
  await writeFile(projectsFile, JSON.stringify({ projects: [project] }));
  return { apiKey, projectsFile };
}

/**
 * What a crash proof's `kopek serve` runs with: PostgreSQL at `databaseUrl`, one project on the
 * sandbox provider process at `providerUrl` (5 s timeout), a fixed encryption key, a 1.5 s
 * idempotency lease, and `extra` (the worker is off unless it says so). Answers the env and the key.
 */
export async function crashProofServer(
  dir: string,
  name: string,
  providerUrl: string,
  databaseUrl: string,
  extra: Record<string, string> = {},
) {
  const { apiKey, projectsFile } = await writeSandboxProject(dir, name, {
    url: providerUrl,
    timeoutMs: 5000,
  });
  const env: Record<string, string> = {
    DATABASE_URL: databaseUrl,
    KOPEK_PROJECTS_FILE: projectsFile,
    KOPEK_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString("base64"),
    KOPEK_IDEMPOTENCY_LEASE_MS: "1500",
    KOPEK_WORKER: "off",
    ...extra,
  };
  return { apiKey, env };
}
