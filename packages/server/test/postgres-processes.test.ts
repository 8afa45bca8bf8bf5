import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { generateApiKey, hashApiKey } from "@kopek/core";
import { sandboxMethodFingerprint } from "@kopek/provider-sandbox";
import { afterAll, describe, expect, it } from "vitest";
import { openTestDatabase, testDatabaseSchema } from "../../storage-postgres/test/database.js";
import { encryptionKeyId } from "../src/startup/encryption-key.js";
import { spawnCli } from "./cli-process.js";
import { subscriptionBody, uniqueMethodRef } from "./helper.js";
import { payAtSandbox } from "./pay-page.js";
import { postJson, processPages, type ServerProcess, startServerProcess } from "./server-process.js";

// Real server processes on one database. The file starts from an EMPTY database (no migrations),
// except in the sharded schema modes (`pnpm proof:citus`), whose database starts migrated.
const prepared = testDatabaseSchema() !== "plain";
const db = await openTestDatabase();
const scratch = await mkdtemp(join(tmpdir(), "kopek-processes-"));
const servers: ServerProcess[] = [];
afterAll(async () => {
  await Promise.all(servers.map((server) => server.kill()));
  await db.close();
  await rm(scratch, { recursive: true, force: true });
});

// Starting a CLI process alone takes seconds on a loaded machine: as long as the real-server tests.
describe("kopek serve on a database it cannot reach", { timeout: 30_000 }, () => {
  it("stops at start with one line and exit 1", async () => {
    const cli = spawnCli(["serve"], {
      PORT: "0",
      DATABASE_URL: "postgres://postgres:hunter2@127.0.0.1:1/none",
      KOPEK_ENCRYPTION_KEY: Buffer.alloc(32, 9).toString("base64"),
    });
    expect(await cli.exited).toBe(1);
    expect(cli.stderr()).toMatch(
      /^kopek: cannot prepare the database at DATABASE_URL: connect ECONNREFUSED \S+\n$/,
    );
    expect(cli.stderr()).not.toContain("hunter2");
  });
});

// Several sessions and processes on one database: only a real PostgreSQL server has them.
describe.runIf(db.isRealServer)(
  "two server processes on one PostgreSQL database (real server only)",
  { timeout: 30_000 },
  () => {
    const ledgerFile = join(scratch, "ledger.jsonl");
    const keyFile = join(scratch, "key", "encryption.key"); // no KOPEK_ENCRYPTION_KEY: both use the file
    const projectsFile = join(scratch, "projects.json");
    const apiKey = generateApiKey();
    const projectId = randomUUID();
    const env = {
      DATABASE_URL: db.url ?? "",
      KOPEK_PROJECTS_FILE: projectsFile,
      KOPEK_SANDBOX_LEDGER_FILE: ledgerFile,
      KOPEK_ENCRYPTION_KEY_FILE: keyFile,
    };
    const start = async (extra: Record<string, string> = {}) => {
      const server = await startServerProcess({ ...env, ...extra });
      servers.push(server);
      return server;
    };
    const charges = async () =>
      (await readFile(ledgerFile, "utf8").catch(() => ""))
        .split("\n")
        .filter((line) => line !== "")
        .map((line) => JSON.parse(line) as { methodFingerprint: string });
    const chargesOf = async (ref: string) =>
      (await charges()).filter((c) => c.methodFingerprint === sandboxMethodFingerprint(ref)).length;
    let a: ServerProcess;
    let b: ServerProcess;

    it("both start at once on an empty database: migrations applied once, one key file made", async () => {
      const migrations = await readdir(new URL("../../storage-postgres/migrations/", import.meta.url));
      const versions = migrations.filter((name) => name.endsWith(".sql")).map((_, i) => i + 1);
      const project = {
        id: projectId,
        name: "shop",
        provider: { kind: "sandbox" },
        apiKeys: [{ sha256: hashApiKey(apiKey) }],
      };
      await writeFile(projectsFile, JSON.stringify({ projects: [project] }));
      [a, b] = await Promise.all([
        start({ KOPEK_SANDBOX_LATENCY_MS: "300" }),
        start({ KOPEK_SANDBOX_LATENCY_MS: "300" }),
      ]);
      const logs = [a, b].map((server) => server.cli.stdout());
      // TEST_DATABASE_SCHEMA=partitioned or citus: the harness migrated (and sharded) it, both find it current.
      const migrating = prepared ? 0 : 1;
      expect(
        logs.filter((log) => log.includes(`"applied":[${versions.join(",")}],"msg":"database migrated"`)),
      ).toHaveLength(migrating);
      expect(
        logs.filter((log) => log.includes('"applied":[],"msg":"database schema is current"')),
      ).toHaveLength(2 - migrating);
      const { rows } = await db.pool.query("SELECT version FROM kopek_migrations");
      expect(rows).toEqual(versions.map((version) => ({ version })));
      expect((await stat(keyFile)).mode & 0o777).toBe(0o600);
      for (const log of logs) expect(log.match(/KOPEK_ENCRYPTION_KEY is not set/g)).toHaveLength(1);
    });

    let created = "";
    const sameRequest = {
      key: randomUUID(),
      body: subscriptionBody({ providerMethodRef: uniqueMethodRef("pm") }),
    };

    it("50 identical requests split across both: one 201, the rest 200 or 409, one charge", async () => {
      const responses = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          postJson(
            `${(i % 2 === 0 ? a : b).url}/v1/subscriptions`,
            apiKey,
            sameRequest.key,
            sameRequest.body,
          ),
        ),
      );
      const statuses = responses.map((response) => response.status);
      const count = (status: number) => statuses.filter((s) => s === status).length;
      console.info(`two instances: 201 ×${count(201)}, 200 ×${count(200)}, 409 ×${count(409)}`);
      expect(count(201)).toBe(1);
      expect(count(200) + count(409)).toBe(49);
      created = responses.find((response) => response.status === 201)?.body ?? "";
      for (const replay of responses.filter((response) => response.status === 200))
        expect(replay.body).toBe(created);
      expect(await chargesOf(sameRequest.body.providerMethodRef)).toBe(1);
      expect(await charges()).toHaveLength(1);
    });

    it("50 concurrent partial refunds of one payment split across both never sum past it", async () => {
      const subscriptionId = (JSON.parse(created) as { id: string }).id;
      const listed = await fetch(`${a.url}/v1/payments?subscriptionId=${subscriptionId}`, {
        headers: { authorization: `Bearer ${apiKey}` },
      });
      const [payment] = ((await listed.json()) as { data: { id: string; amount: { amount: string } }[] })
        .data;
      expect(payment?.amount.amount).toBe("149900");
      const refunds = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          postJson(`${(i % 2 === 0 ? a : b).url}/v1/payments/${payment?.id}/refunds`, apiKey, randomUUID(), {
            amount: { amount: "5000", currency: "RUB" },
          }),
        ),
      );
      const statuses = refunds.map((response) => response.status);
      // 149900 holds 29 refunds of 5000, whichever process each one reached.
      expect(statuses.filter((s) => s === 201)).toHaveLength(29);
      expect(statuses.filter((s) => s === 422)).toHaveLength(21);
      const { rows } = await db.queryAcrossProjects(
        "SELECT sum(amount)::text AS total, count(*)::int AS n FROM refunds WHERE payment_id = $1 AND status = 'succeeded'",
        [payment?.id],
      );
      expect(rows).toEqual([{ total: "145000", n: 29 }]);
      const stored = await db.queryAcrossProjects(
        "SELECT amount_refunded::text AS refunded FROM payments WHERE id = $1",
        [payment?.id],
      );
      expect(stored.rows).toEqual([{ refunded: "145000" }]);
    });

    it("10 subscriptions from one paid invoice split across both: one 201, nine 409, no second charge", async () => {
      const invoice = await postJson(`${a.url}/v1/invoices`, apiKey, randomUUID(), {
        amount: { amount: "149900", currency: "RUB" },
        savePaymentMethod: true,
      });
      expect(invoice.status).toBe(201);
      const invoiceId = (JSON.parse(invoice.body) as { id: string }).id;
      await payAtSandbox(processPages(a.url), invoiceId, "card", "succeed", a.url);
      const paid = await fetch(`${b.url}/v1/invoices/${invoiceId}`, {
        headers: { authorization: `Bearer ${apiKey}` },
      });
      expect(await paid.json()).toMatchObject({ status: "paid", savedMethod: { method: "card" } });
      const chargesBefore = (await charges()).length;
      const body = {
        amount: { amount: "149900", currency: "RUB" },
        period: { unit: "month", count: 1 },
        invoiceId,
      };
      const responses = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          postJson(`${(i % 2 === 0 ? a : b).url}/v1/subscriptions`, apiKey, randomUUID(), body),
        ),
      );
      const statuses = responses.map((response) => response.status);
      expect(statuses.filter((s) => s === 201)).toHaveLength(1);
      const refused = responses.filter((response) => response.status === 409);
      expect(refused.map((response) => JSON.parse(response.body).code)).toEqual(
        Array(9).fill("invoice_already_used"),
      );
      const { rows } = await db.queryAcrossProjects(
        "SELECT count(*)::int AS n, min(cycles_started)::int AS cycles FROM subscriptions WHERE invoice_id = $1",
        [invoiceId],
      );
      expect(rows).toEqual([{ n: 1, cycles: 1 }]);
      expect((await charges()).length).toBe(chargesBefore);
    });

    it("after a restart the replay is byte-identical, with 200", async () => {
      expect(await a.stop()).toBe(0);
      a = await start();
      for (const server of [a, b]) {
        const replay = await postJson(
          `${server.url}/v1/subscriptions`,
          apiKey,
          sameRequest.key,
          sameRequest.body,
        );
        expect(replay.status).toBe(200);
        expect(replay.headers.get("idempotent-replayed")).toBe("true");
        expect(replay.body).toBe(created);
      }
      expect(await charges()).toHaveLength(1);
    });

    it("a key revoked with the CLI is refused at once by both servers", async () => {
      // The command line reads projects as the servers do, with their key (here, their key file).
      const issued = spawnCli(["keys", "create", "--project", projectId], {
        DATABASE_URL: db.url ?? "",
        KOPEK_ENCRYPTION_KEY_FILE: keyFile,
      });
      expect(await issued.exited).toBe(0);
      const key = issued.stdout().match(/key: +(\S+)/)?.[1] ?? "";
      for (const server of [a, b]) {
        const body = subscriptionBody({ providerMethodRef: uniqueMethodRef("pm") });
        expect((await postJson(`${server.url}/v1/subscriptions`, key, randomUUID(), body)).status).toBe(201);
      }
      const revoked = spawnCli(["keys", "revoke", key], { DATABASE_URL: db.url ?? "" });
      expect(await revoked.exited).toBe(0);
      for (const server of [a, b]) {
        expect((await postJson(`${server.url}/v1/invoices`, key, randomUUID(), {})).status).toBe(401);
      }
      // Both servers encrypted with the one key in the key file.
      const keyId = encryptionKeyId(Buffer.from((await readFile(keyFile, "utf8")).trim(), "base64"));
      const { rows } = await db.queryAcrossProjects(
        "SELECT DISTINCT provider_method_ref_key_id AS id FROM subscriptions",
      );
      expect(rows).toEqual([{ id: keyId }]);
    });

    it("crash mid-charge: after a restart and the lease, the retry gets 201 and the charge happened once", async () => {
      const crash = {
        key: randomUUID(),
        body: subscriptionBody({ providerMethodRef: uniqueMethodRef("pm_crash") }),
      };
      // Every sandbox call takes 500 ms (describe, then charge); the lease outlasts both, as it should.
      const slow = await start({ KOPEK_SANDBOX_LATENCY_MS: "500", KOPEK_IDEMPOTENCY_LEASE_MS: "2000" });
      const inFlight = postJson(`${slow.url}/v1/subscriptions`, apiKey, crash.key, crash.body).catch(
        (e) => e,
      );
      while ((await chargesOf(crash.body.providerMethodRef)) === 0) await sleep(20);
      await slow.kill(); // the provider charged; Kopek never stored the outcome
      expect(await inFlight).toBeInstanceOf(Error);

      const restarted = await start({ KOPEK_IDEMPOTENCY_LEASE_MS: "2000" });
      let retry = await postJson(`${restarted.url}/v1/subscriptions`, apiKey, crash.key, crash.body);
      const statuses = [retry.status];
      while (retry.status === 409) {
        await sleep(200); // the dead process's lease runs out
        retry = await postJson(`${restarted.url}/v1/subscriptions`, apiKey, crash.key, crash.body);
        statuses.push(retry.status);
      }
      console.info(`crash: retries answered ${statuses.join(", ")}`);
      expect(retry.status).toBe(201);
      expect(await chargesOf(crash.body.providerMethodRef)).toBe(1);
      // A refusal that stores nothing (409 invoice_already_used above) releases its key: in progress with
      // a lease already over, free for a retry. Stuck is the crash's key, or any lease still held.
      const stuck = await db.queryAcrossProjects(
        "SELECT key FROM idempotency_records WHERE state = 'in_progress' AND (key = $1 OR lease_expires_at > now())",
        [crash.key],
      );
      expect(stuck.rows).toEqual([]);
      expect(existsSync(ledgerFile)).toBe(true);
    });
  },
);
