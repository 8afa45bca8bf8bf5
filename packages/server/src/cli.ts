#!/usr/bin/env node
import { runCli } from "./cli/run-cli.js";
import { startServer } from "./main.js";
import { loadConfig } from "./startup/config.js";
import { type SandboxProviderOptions, startSandboxProvider } from "./startup/sandbox-provider-command.js";
import { closeOnSignals } from "./startup/shutdown.js";
import { startWorker } from "./worker-main.js";

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
  const config = loadConfig(process.env);
  if (config.isErr()) return fail(config.error);
  const server = await startServer(config.value, io.stdout);
  if (server.isErr()) return fail(server.error);
  closeOnSignals({ log: server.value.app.log, close: server.value.close });
  return -1; // keeps running until a signal
}

async function work(): Promise<number> {
  const config = loadConfig(process.env);
  if (config.isErr()) return fail(config.error);
  const worker = await startWorker(config.value);
  if (worker.isErr()) return fail(worker.error);
  closeOnSignals(worker.value);
  return -1; // keeps running until a signal
}

function fail(message: string): number {
  io.stderr(`kopek: ${message}\n`);
  return 1;
}

async function sandboxProvider(options: SandboxProviderOptions): Promise<number> {
  const service = await startSandboxProvider(options);
  if (service.isErr()) return fail(service.error);
  closeOnSignals(service.value);
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
