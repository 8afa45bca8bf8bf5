import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { openTestDatabase } from "../../storage-postgres/test/database.js";

const CLI = fileURLToPath(new URL("../src/cli.ts", import.meta.url));
const LOADED_PACKAGES = fileURLToPath(new URL("./loaded-packages.ts", import.meta.url));
const ROOT = fileURLToPath(new URL("../../..", import.meta.url));

// What only `serve` and `worker` need: a command that loads them costs every operator ~0.8 s of CPU.
const SERVER_ONLY = ["fastify", "prom-client", "rate-limiter-flexible", "ioredis"];

const db = await openTestDatabase();
afterAll(() => db.close());

/** Runs kopek from source, as cli-process.ts does; resolves with the exit code and the packages it loaded. */
async function kopek(args: readonly string[], env: Record<string, string> = {}) {
  const run = promisify(execFile)(
    process.execPath,
    ["--conditions=dev-source", "--import", "tsx", "--import", LOADED_PACKAGES, CLI, ...args],
    { cwd: ROOT, env: { PATH: process.env.PATH ?? "", ...env } },
  );
  const { stderr, code } = await run.then(
    ({ stderr }) => ({ stderr, code: 0 }),
    (failed: { stderr: string; code: number }) => failed,
  );
  const loaded = stderr.match(/^loaded packages: (.*)$/m)?.[1]?.split(" ") ?? ["(none reported)"];
  return { code, loaded };
}

describe("kopek commands load only what they need", { timeout: 120_000 }, () => {
  it("--help and keys generate load neither the HTTP server nor the database driver", async () => {
    for (const args of [["--help"], ["keys", "generate"]]) {
      const { code, loaded } = await kopek(args);
      expect(code).toBe(0);
      expect(loaded).not.toContain("pg");
      for (const name of SERVER_ONLY) expect(loaded, args.join(" ")).not.toContain(name);
    }
  });

  it.runIf(db.url !== null)(
    "a database command (migrate, projects list) loads pg, but not Fastify, prom-client, rate-limiter-flexible or ioredis",
    async () => {
      const env = { DATABASE_URL: db.url ?? "", KOPEK_ENCRYPTION_KEY: randomBytes(32).toString("base64") };
      for (const args of [["migrate"], ["projects", "list"]]) {
        const { code, loaded } = await kopek(args, env);
        expect(code).toBe(0);
        expect(loaded).toContain("pg"); // the hook sees what the command loads
        for (const name of SERVER_ONLY) expect(loaded, args.join(" ")).not.toContain(name);
      }
    },
  );
});
