#!/usr/bin/env node
import { runCli } from "./cli/run-cli.js";
import type { RunningServer } from "./main.js";
import type { SandboxProviderOptions } from "./startup/sandbox-provider-command.js";
import { type Closable, closeOnSignals } from "./startup/shutdown.js";

// The long-running commands' modules (Fastify, prom-client, the providers, …) are imported only when
// one of them runs: a database command or --help would otherwise pay for loading them (docs/performance.md).

const io = {
  env: process.env,
  stdout: (text: string) => process.stdout.write(text),
  stderr: (text: string) => process.stderr.write(text),
  readStdin: async () => {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString("utf8");
  },
};

async function serve(): Promise<number> {
  const { loadConfig } = await import("./startup/config.js");
  const config = loadConfig(process.env);
  if (config.isErr()) return fail(config.error);
  const { startServer } = await import("./main.js");
  const starting = startServer(config.value, io.stdout);
  closeOnSignals(starting.then((server) => (server.isOk() ? closable(server.value) : null)));
  const server = await starting;
  if (server.isErr()) return fail(server.error);
  return -1; // keeps running until a signal
}

async function work(): Promise<number> {
  const { loadConfig } = await import("./startup/config.js");
  const config = loadConfig(process.env);
  if (config.isErr()) return fail(config.error);
  const { startWorker } = await import("./worker-main.js");
  const starting = startWorker(config.value);
  closeOnSignals(starting.then((worker) => (worker.isOk() ? worker.value : null)));
  const worker = await starting;
  if (worker.isErr()) return fail(worker.error);
  return -1; // keeps running until a signal
}

function closable(server: RunningServer): Closable {
  return { log: server.app.log, close: server.close };
}

function fail(message: string): number {
  io.stderr(`kopek: ${message}\n`);
  return 1;
}

async function sandboxProvider(options: SandboxProviderOptions): Promise<number> {
  const { startSandboxProvider } = await import("./startup/sandbox-provider-command.js");
  const starting = startSandboxProvider(options);
  closeOnSignals(starting.then((service) => (service.isOk() ? service.value : null)));
  const service = await starting;
  if (service.isErr()) return fail(service.error);
  return -1; // keeps running until a signal
}

const outcome = await runCli(process.argv.slice(2), io);
const code =
  outcome === "serve"
    ? await serve()
    : outcome === "worker"
      ? await work()
      : typeof outcome === "object"
        ? await sandboxProvider(outcome.options)
        : outcome;
if (code >= 0) process.exitCode = code;
