import { randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { hashApiKey } from "@kopek/core";
import { expect } from "vitest";
import { checkManaging } from "./as-shipped-managing.js";
import { type CliProcess, spawnCli } from "./cli-process.js";
import { subscriptionBody, uniqueMethodRef } from "./helper.js";
import { postJson, type ServerProcess, startServerProcess } from "./server-process.js";
import { recordMethodRef } from "./test-artifacts.js";

/**
 * The built `kopek` as an operator runs it (README, docs/api.md §8): its own working directory (where
 * the default `.kopek/encryption.key` lands), the environment it is given and nothing else.
 */
export async function operatorShell(name: string) {
  const cwd = await mkdtemp(join(tmpdir(), `kopek-shipped-${name}-`));
  const processes: CliProcess[] = [];
  return {
    cwd,
    /** `kopek <args>` to its end: exit code and output. */
    async kopek(env: Record<string, string>, ...args: string[]) {
      const cli = spawnCli(args, env, { cwd });
      const code = await cli.exited;
      return { code, stdout: cli.stdout(), stderr: cli.stderr() };
    },
    async serve(env: Record<string, string>) {
      const server = await startServerProcess(env, { cwd });
      processes.push(server.cli);
      return server;
    },
    /** `kopek worker`, left running: SIGTERM with `stop`. */
    worker(env: Record<string, string>) {
      const cli = spawnCli(["worker"], env, { cwd });
      processes.push(cli);
      return {
        cli,
        waitFor: cli.waitFor,
        async stop() {
          cli.child.kill("SIGTERM");
          return cli.exited;
        },
      };
    },
    /** Kills whatever a failed test left running, and removes the directory. */
    async close() {
      for (const { child } of processes) if (child.exitCode === null) child.kill("SIGKILL");
      await rm(cwd, { recursive: true, force: true });
    },
  };
}

const get = (url: string, apiKey?: string) =>
  fetch(url, apiKey === undefined ? {} : { headers: { authorization: `Bearer ${apiKey}` } });

/**
 * What an operator checks on a server just started: ready, a create (invoice; a subscription when the
 * provider charges a method ref directly) is 201 and its replay 200 `Idempotent-Replayed: true`, the
 * invoice's page is HTML, `/metrics` answers. `replayOn`: another instance the replay goes to.
 */
export async function checkServer(
  server: ServerProcess,
  apiKey: string,
  options: { subscription: boolean; replayOn?: ServerProcess },
) {
  expect((await get(`${server.url}/readyz`)).status).toBe(200);
  const replayUrl = (options.replayOn ?? server).url;
  const creates = [["invoices", { amount: { amount: "149900", currency: "RUB" } }]] as const;
  const subscription = [
    "subscriptions",
    subscriptionBody({ providerMethodRef: uniqueMethodRef("pm_shipped") }),
  ] as const;
  let paymentUrl = "";
  for (const [resource, body] of options.subscription ? [...creates, subscription] : creates) {
    const key = randomUUID();
    const created = await postJson(`${server.url}/v1/${resource}`, apiKey, key, body);
    expect(created.status, `${resource}: ${created.body}`).toBe(201);
    const replayed = await postJson(`${replayUrl}/v1/${resource}`, apiKey, key, body);
    expect(replayed.status, `${resource} replay: ${replayed.body}`).toBe(200);
    expect(replayed.headers.get("idempotent-replayed")).toBe("true");
    expect(JSON.parse(replayed.body).id).toBe(JSON.parse(created.body).id);
    if (resource === "invoices") paymentUrl = JSON.parse(created.body).paymentUrl;
  }
  if (options.subscription) await checkManaging(server.url, apiKey);
  expect(paymentUrl.startsWith(`${server.url}/pay/`)).toBe(true);
  const page = await get(paymentUrl);
  expect(page.status).toBe(200);
  expect(page.headers.get("content-type")).toMatch(/^text\/html/);
  expect(await page.text()).toMatch(/<p class="amount">[^<]*1.499[.,]00/);
  const metrics = await get(`${server.url}/metrics`);
  expect(metrics.status).toBe(200);
  expect(await metrics.text()).toMatch(/^kopek_http_requests_total\{/m);
}

/** SIGTERM: the process drains and exits 0. */
export async function expectCleanStop(server: Pick<ServerProcess, "stop" | "cli">) {
  const code = await server.stop();
  expect(code, server.cli.stderr()).toBe(0);
}

type Kopek = (
  env: Record<string, string>,
  ...args: string[]
) => Promise<{
  code: number | null;
  stdout: string;
  stderr: string;
}>;

/**
 * A sandbox project and its first key, as an operator prepares a database: `kopek migrate` first, unless
 * `kopek serve` already migrated it at start (docs/api.md §8).
 */
export async function prepareDatabase(kopek: Kopek, env: Record<string, string>, migrate = true) {
  if (migrate) {
    const migrated = await kopek(env, "migrate");
    expect(migrated.code, migrated.stderr).toBe(0);
    expect(migrated.stdout).toMatch(/^applied 0001_\w+\n(applied \d{4}_\w+\n)+$/);
  }
  const created = await kopek(env, "projects", "create", "--name", "shop");
  expect(created.code, created.stderr).toBe(0);
  const projectId = created.stdout.trim();
  return { projectId, apiKey: await createKey(kopek, env, projectId) };
}

async function createKey(kopek: Kopek, env: Record<string, string>, projectId: string) {
  const out = await kopek(env, "keys", "create", "--project", projectId);
  expect(out.code, out.stderr).toBe(0);
  return { key: out.stdout.match(/key: +(\S+)/)?.[1] ?? "", id: out.stdout.match(/id: +(\S+)/)?.[1] ?? "" };
}

/**
 * Every database command against the running servers' database, each checked where the operator sees it:
 * every server refuses a revoked key at once (401) and takes a rotated one (201). A YooKassa and a T-Bank
 * project are created first, so the key commands meet a database holding provider secrets. Commands
 * that do not depend on each other run at once, as two operators' terminals would.
 */
export async function runDatabaseCommands(
  kopek: Kopek,
  env: Record<string, string>,
  servers: readonly ServerProcess[],
  projectId: string,
) {
  const secrets = { SHOP_SECRET_KEY: "test_shipped_secret", TERMINAL_PASSWORD: "shipped_password" };
  for (const secret of Object.values(secrets)) recordMethodRef(secret); // for the secret scan
  const run = async (...args: string[]) => {
    const out = await kopek({ ...env, ...secrets }, ...args);
    expect(out.code, `kopek ${args.join(" ")}: ${out.stderr}`).toBe(0);
    for (const secret of Object.values(secrets)) expect(out.stdout + out.stderr).not.toContain(secret);
    return out;
  };
  const ok = async (...args: string[]) => (await run(...args)).stdout;
  // A real provider's project: its id on stdout, the notification URL to give the provider on stderr.
  const created = async (kind: string, ...args: string[]) => {
    const out = await run("projects", "create", "--name", kind, "--provider", kind, ...args);
    const id = out.stdout.trim();
    expect(out.stderr).toContain(`/provider-events/${id}/${kind}`);
    return id;
  };
  const [migrated, yookassaId, tbankId, , hooks, ...keys] = await Promise.all([
    ok("migrate"),
    created("yookassa", "--shop-id", "506751", "--secret-key-env", "SHOP_SECRET_KEY"),
    created("tbank", "--terminal-key", "1700000000000DEMO", "--password-env", "TERMINAL_PASSWORD"),
    ok("projects", "update", projectId, "--name", "shop-renamed", "--display-name", "Shop"),
    ok("webhooks", "add", "--project", projectId, "--url", "https://shop.example/kopek-hooks"),
    ...[0, 1, 2, 3].map(() => createKey(kopek, env, projectId)),
  ]);
  expect(migrated).toBe("The database schema is current: nothing to apply.\n");
  expect(hooks).toMatch(/^secret: whsec_/m);
  const list = await ok("projects", "list");
  for (const id of [projectId, yookassaId, tbankId]) expect(list).toContain(id);
  expect(list).toContain('shop-renamed "Shop"  sandbox');

  // What every server answers a create with this key: one status when they agree.
  const status = async (apiKey: string) => {
    const answers = await Promise.all(
      servers.map(
        async (server) =>
          (
            await postJson(`${server.url}/v1/invoices`, apiKey, randomUUID(), {
              amount: { amount: "100", currency: "RUB" },
            })
          ).status,
      ),
    );
    return new Set(answers).size === 1 ? answers[0] : answers;
  };
  const [byId, byPrefix, rotateById, rotateByPrefix] = keys as { key: string; id: string }[];
  if (!byId || !byPrefix || !rotateById || !rotateByPrefix) throw new Error("four keys");
  expect(await status(byId.key)).toBe(201);
  // The endpoint the CLI added is the API's too (API.md 12: one code path, one storage), never its secret.
  const hookId = /^id: +(\S+)$/m.exec(hooks)?.[1];
  const listed = await fetch(`${servers[0]?.url}/v1/webhook-endpoints`, {
    headers: { authorization: `Bearer ${byId.key}` },
  });
  const endpoints = (await listed.json()) as { data: { id: string; url: string }[] };
  expect(endpoints.data).toEqual([
    expect.objectContaining({ id: hookId, url: "https://shop.example/kopek-hooks", enabled: true }),
  ]);
  expect(JSON.stringify(endpoints)).not.toContain("whsec_");
  // The events the walk caused so far, as the CLI lists them: each a customer.created of this project.
  const events = (await ok("events", "list", "--project", projectId, "--type", "customer.created")).trim();
  for (const line of events.split("\n")) expect(line).toMatch(/^[0-9a-f-]{36} {2}\S+Z {2}customer\.created/);
  const prefix = (key: string) => hashApiKey(key).slice(0, 12);
  const [, , rotatedById, rotatedByPrefix] = await Promise.all([
    ok("keys", "revoke", byId.id),
    ok("keys", "revoke", prefix(byPrefix.key)),
    ok("keys", "rotate", rotateById.id),
    ok("keys", "rotate", prefix(rotateByPrefix.key)),
  ]);
  for (const old of [byId, byPrefix, rotateById, rotateByPrefix]) expect(await status(old.key)).toBe(401);
  for (const rotated of [rotatedById, rotatedByPrefix])
    expect(await status(rotated.match(/key: +(\S+)/)?.[1] ?? "")).toBe(201);
}
