import { afterAll, describe, expect, it } from "vitest";
import { openTestDatabase } from "../../storage-postgres/test/database.js";
import {
  checkServer,
  expectCleanStop,
  operatorShell,
  prepareDatabase,
  runDatabaseCommands,
} from "./as-shipped.js";
import { ensureBuiltCli } from "./built-cli.js";
import { REDIS_URL, redisAnswers } from "./redis-server.js";

// The built `kopek serve`, `kopek worker` and database commands as docs/api.md §8 tells an operator to
// run them on PostgreSQL, every setting not named at its default (the rate limits, now kept in
// PostgreSQL or Redis, the worker and its interval included). Each configuration has a fresh database
// of its own. Other processes reach a database by DATABASE_URL, which only a real server has: on PGlite
// these are reported as skipped.
const build = await ensureBuiltCli();
console.info(
  `as-shipped: ${build.built.length === 0 ? "dist is fresh" : `built ${build.built.join(", ")}`} (${build.ms} ms)`,
);
// PGlite (one embedded database, no URL) is opened once, only to learn that the server is missing.
const first = await openTestDatabase();
const databases = first.isRealServer ? [first, await openTestDatabase(), await openTestDatabase()] : [first];
const [alone, withRedis, shared] = databases;
afterAll(() => Promise.all(databases.map((db) => db.close())));
const realServer = first.isRealServer;
const redisUp = await redisAnswers(REDIS_URL);

/**
 * A fresh database: `kopek migrate`, a project and its key, `kopek serve`, the checks, every database
 * command, SIGTERM. `serveFirst`: `kopek serve` migrates the empty database at start, the project and
 * key are made while it runs, and the other commands are left out (they never read REDIS_URL: b runs them).
 */
async function servedAlone(name: string, env: Record<string, string>, { serveFirst = false } = {}) {
  const shell = await operatorShell(name);
  try {
    const early = serveFirst ? await shell.serve(env) : null;
    const { projectId, apiKey } = await prepareDatabase(shell.kopek, env, !serveFirst);
    const server = early ?? (await shell.serve(env));
    expect(server.cli.stdout()).toContain('"storage":"postgres"');
    await checkServer(server, apiKey.key, { subscription: true });
    if (!serveFirst) await runDatabaseCommands(shell.kopek, env, [server], projectId);
    await expectCleanStop(server);
    return server;
  } finally {
    await shell.close();
  }
}

describe
  .runIf(realServer)
  .concurrent("as shipped, on PostgreSQL (real server only)", { timeout: 180_000 }, () => {
    it("b. DATABASE_URL alone: rate limits in PostgreSQL; every database command", async () => {
      const server = await servedAlone("postgres", { DATABASE_URL: alone?.url ?? "" });
      expect(server.cli.stdout()).toContain('"rateLimits":"postgres"');
    });

    it.runIf(redisUp)(
      "c. DATABASE_URL and REDIS_URL (where Redis answers): rate limits in Redis; serve migrates the empty database",
      async () => {
        const server = await servedAlone(
          "redis",
          { DATABASE_URL: withRedis?.url ?? "", REDIS_URL },
          { serveFirst: true },
        );
        expect(server.cli.stdout()).toContain('"rateLimits":"redis"');
      },
    );

    it("e. two kopek serve and a kopek worker on one database: one's create replayed by the other; every command, seen by both", async () => {
      const shell = await operatorShell("shared");
      const env = { DATABASE_URL: shared?.url ?? "" };
      try {
        const { projectId, apiKey } = await prepareDatabase(shell.kopek, env);
        const worker = shell.worker(env);
        const [a, b] = await Promise.all([shell.serve(env), shell.serve(env)]);
        if (a === undefined || b === undefined) throw new Error("two servers");
        await worker.waitFor(/"renewal worker started"/);
        await checkServer(a, apiKey.key, { subscription: true, replayOn: b });
        await checkServer(b, apiKey.key, { subscription: true, replayOn: a });
        await runDatabaseCommands(shell.kopek, env, [a, b], projectId);
        await Promise.all([expectCleanStop(a), expectCleanStop(b), expectCleanStop(worker)]);
      } finally {
        await shell.close();
      }
    });
  });
