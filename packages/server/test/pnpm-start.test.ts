import { spawn } from "node:child_process";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { afterAll, expect, test } from "vitest";
import { openTestDatabase } from "../../storage-postgres/test/database.js";
import { appendLog, newLogFile } from "./test-artifacts.js";

const ROOT = fileURLToPath(new URL("../../..", import.meta.url));

// Issue 18: `pnpm start` runs the server from source (no build first), and SIGTERM sent to `pnpm
// start` itself — pnpm, not the server, is the process a supervisor or a terminal holds — stops the
// server gracefully instead of leaving it running and answering.
// Issue 38: with DATABASE_URL (a fresh database, every other setting at its default, rate limits
// counted in PostgreSQL) it crashed at start; now it migrates and is ready.
const db = await openTestDatabase();
afterAll(() => db.close());
const settings = [
  { name: "on memory", env: {} as Record<string, string> },
  ...(db.url === null
    ? []
    : [{ name: "with DATABASE_URL on a fresh database", env: { DATABASE_URL: db.url } }]),
];

test.each(settings)(
  "pnpm start $name serves /readyz without a build, and SIGTERM to pnpm stops the server gracefully",
  async ({ env: extra }) => {
    // Under `pnpm test`, npm_execpath is the pnpm that runs the suite; otherwise pnpm from PATH.
    const pnpm = process.env.npm_execpath?.includes("pnpm")
      ? { command: process.execPath, args: [process.env.npm_execpath, "start"] }
      : { command: "pnpm", args: ["start"] };
    const started = Date.now();
    const child = spawn(pnpm.command, pnpm.args, {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? "", PORT: "0", LOG_LEVEL: "info", ...extra },
    });
    const logFile = newLogFile("pnpm-start");
    let out = "";
    // For the secret scan, only log lines (JSON) go to the log file: the demo banner prints its key on purpose.
    const collect = (chunk: Buffer) => {
      out += chunk.toString();
      const logLines = chunk
        .toString()
        .split("\n")
        .filter((line) => line.startsWith("{"));
      if (logLines.length > 0) appendLog(logFile, `${logLines.join("\n")}\n`);
    };
    child.stdout.on("data", collect);
    child.stderr.on("data", collect);
    const pnpmExited = new Promise((resolve) => child.on("exit", resolve));
    try {
      const until = async (pattern: RegExp, ms: number) => {
        const end = Date.now() + ms;
        while (!pattern.test(out) && Date.now() < end) await sleep(50);
        return pattern.exec(out);
      };
      const url = (await until(/"url":"(http:\/\/127\.0\.0\.1:\d+)"/, 60_000))?.[1];
      expect(url, out).toBeDefined();
      const health = await fetch(`${url}/healthz`);
      expect(health.status).toBe(200);
      expect((await fetch(`${url}/readyz`)).status).toBe(200);
      console.log(`pnpm start: /healthz answered ${Date.now() - started} ms after the command`);

      child.kill("SIGTERM");
      await pnpmExited;
      expect(await until(/"msg":"stopped"/, 10_000), out).not.toBeNull();
      expect(out).toContain('"signal":"SIGTERM","msg":"shutting down: finishing in-flight work"');
      // Gone, not merely orphaned: the port refuses connections.
      await sleep(200);
      await expect(fetch(`${url}/healthz`)).rejects.toThrow();
    } finally {
      child.kill("SIGKILL");
    }
  },
  90_000,
);
