#!/usr/bin/env node
import { parseArgs } from "node:util";
import { generateApiKey, hashApiKey } from "@kopek/core";
import { loadConfig } from "./config.js";
import { startServer } from "./main.js";
import { closeOnSignals } from "./shutdown.js";

const USAGE = `Usage: kopek [command]

Commands:
  serve            Start the HTTP server (the default)
  keys generate    Print a new API key and its SHA-256 for the projects file
  help             Show this help (also --help, -h)

Environment (serve):
  HOST                  Address to listen on (default 127.0.0.1)
  PORT                  Port to listen on, 0-65535 (default 3000)
  KOPEK_PROJECTS_FILE   JSON file of projects and key hashes, applied at start
                        (without it, memory storage gets a demo project and key)
  KOPEK_PUBLIC_URL      Base URL of payment links (default http://HOST:PORT)
  KOPEK_RATE_LIMIT      Requests per second per API key (default 100, 0 = off)
  LOG_LEVEL             fatal, error, warn, info, debug, trace or silent (default info)
  DATABASE_URL          PostgreSQL URL (default: memory storage)
  KOPEK_ENCRYPTION_KEY  32 bytes in base64, for method tokens at rest
  KOPEK_WORKER          on or off: the renewal worker (default on)
`;

async function serve(): Promise<number> {
  const config = loadConfig(process.env);
  if (config.isErr()) return fail(config.error);
  const server = await startServer(config.value, (text) => process.stdout.write(text));
  if (server.isErr()) return fail(server.error);
  closeOnSignals(server.value);
  return -1; // keeps running until a signal
}

function generateKey(): number {
  const key = generateApiKey();
  process.stdout.write(
    `key:    ${key}\nsha256: ${hashApiKey(key)}\n\n` +
      "Give the key to the client; put only the sha256 in the projects file's apiKeys. The key is not shown again.\n",
  );
  return 0;
}

function fail(message: string): number {
  process.stderr.write(`kopek: ${message}\n`);
  return 1;
}

function usageError(message: string): number {
  process.stderr.write(`kopek: ${message}\n\n${USAGE}`);
  return 2;
}

function parse(argv: readonly string[]): { words: string[]; help: boolean } | string {
  try {
    const { values, positionals } = parseArgs({
      args: [...argv],
      options: { help: { type: "boolean", short: "h" } },
      allowPositionals: true,
    });
    return { words: positionals, help: values.help === true };
  } catch (cause) {
    return (cause as Error).message; // an unknown option, e.g. --port
  }
}

async function run(argv: readonly string[]): Promise<number> {
  const parsed = parse(argv);
  if (typeof parsed === "string") return usageError(parsed);
  const [command = "serve", ...rest] = parsed.words;
  if (parsed.help || command === "help") {
    process.stdout.write(USAGE);
    return 0;
  }
  const line = [command, ...rest].join(" ");
  if (line === "serve") return serve();
  if (line === "keys generate") return generateKey();
  return usageError(`unknown command "${line}"`);
}

const code = await run(process.argv.slice(2));
if (code >= 0) process.exitCode = code;
