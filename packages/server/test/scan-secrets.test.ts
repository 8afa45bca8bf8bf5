import { execFile } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { generateApiKey, generateWebhookSecret } from "@kopek/core";
import { afterAll, expect, test } from "vitest";

// The scan CI runs after the suite (scripts/scan-secrets.mjs), on planted secrets and on look-alikes.
const ROOT = fileURLToPath(new URL("../../..", import.meta.url));
const scratch = await mkdtemp(join(tmpdir(), "kopek-scan-"));
afterAll(() => rm(scratch, { recursive: true, force: true }));

async function scan(files: Record<string, string>) {
  const root = await mkdtemp(join(scratch, "root-"));
  for (const [name, text] of Object.entries(files)) {
    await mkdir(join(root, name, ".."), { recursive: true });
    await writeFile(join(root, name), text);
  }
  const run = promisify(execFile)(
    process.execPath,
    ["--import", "tsx", "scripts/scan-secrets.mjs", "--root", root],
    { cwd: ROOT, env: { ...process.env, KOPEK_SCAN_CORE_SOURCE: "1" } },
  );
  return run.then(
    ({ stdout, stderr }) => ({ code: 0, out: stdout + stderr }),
    (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, out: e.stdout + e.stderr }),
  );
}

const CLEAN_LOG = [
  '{"level":30,"time":1767225600000,"pid":42,"requestId":"0192f3c4-5e6f-7a8b-9c0d-1e2f3a4b5c6d","msg":"request completed"}',
  '{"amount":"999999999999999999","sha256":"4111111111111111aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"}',
].join("\n");

test("clean logs and dumps, look-alikes included: zero hits, exit 0", async () => {
  const dump =
    "COPY public.subscriptions (id, amount, currency) FROM stdin;\nx\t4111111111111111\tRUB\n\\.\n" +
    // The rate limiter's count and epoch-ms expiry: "40" and "1795618310266" pass Luhn together.
    "COPY public.kopek_rate_limits (key, points, expire) FROM stdin;\n" +
    "kopek-key:601b54b06fa39485ce516c8ca7c8fe8c2c620ccadbb850ce2f76b226aa02b6b3\t40\t1795618310266\n\\.\n" +
    // A T-Bank RebillId next to a card mask: "99248971" and "2202 20" pass Luhn when read as one run.
    "COPY public.subscriptions (id, method_ref, method_mask) FROM stdin;\n" +
    "y\t99248971\t2202 20** **** 7054\n\\.\n";
  const result = await scan({
    "logs/a.log": CLEAN_LOG,
    // A start's migrations: with fifteen of them, "1,2,…,15" read as one digit run passes Luhn.
    "logs/started.log":
      '{"level":30,"time":1795932998002,"applied":[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15],"msg":"database migrated"}',
    "dumps/db.sql": dump,
    "secrets/refs.txt": "pm_never_logged_123\n",
  });
  expect(result.out).toContain("0 secrets found");
  expect(result.code).toBe(0);
}, 30_000);

test("a key, a card number and a method token: exit 1, file:line of each, never the secret", async () => {
  const key = generateApiKey();
  const result = await scan({
    "logs/a.log": `${CLEAN_LOG}\n{"msg":"auth ${key}"}\n{"msg":"card 4111 1111 1111 1111"}\n`,
    "dumps/db.sql":
      "COPY public.x (id, note) FROM stdin;\n1\tpm_leaked_token_42\n2\ttok_not_in_the_manifest\n3\t4111 1111 1111 1111\n\\.\n",
    "secrets/refs.txt": "pm_leaked_token_42\n",
  });
  expect(result.code).toBe(1);
  expect(result.out).toContain("5 secrets found");
  expect(result.out).toMatch(/dumps\/db\.sql:4: a card number/);
  expect(result.out).toMatch(/logs\/a\.log:3: an API key/);
  expect(result.out).toMatch(/logs\/a\.log:4: a card number/);
  expect(result.out).toMatch(/dumps\/db\.sql:2: a plaintext method token/);
  expect(result.out).toMatch(/dumps\/db\.sql:3: a plaintext method token/);
  expect(result.out).not.toContain(key);
  expect(result.out).not.toContain("pm_leaked_token_42");
  expect(result.out).not.toContain("4111 1111");
}, 30_000);

test("a provider secret key in a log or a dump: exit 1, never the key", async () => {
  const secretKey = `live_${"A1b2-C3d4_".repeat(4)}xyz`;
  const result = await scan({
    "logs/a.log": `${CLEAN_LOG}\n{"msg":"basic 506751:${secretKey}"}\n`,
    "dumps/db.sql": `COPY public.projects (id, provider) FROM stdin;\n1\t{"secretKey": "${secretKey}"}\n\\.\n`,
  });
  expect(result.code).toBe(1);
  expect(result.out).toContain("2 secrets found");
  expect(result.out).toMatch(/logs\/a\.log:3: a provider secret key/);
  expect(result.out).toMatch(/dumps\/db\.sql:2: a provider secret key/);
  expect(result.out).not.toContain(secretKey);
}, 30_000);

test("a webhook signing secret in a log or a dump: exit 1, never the secret", async () => {
  const secret = generateWebhookSecret();
  const result = await scan({
    "logs/a.log": `${CLEAN_LOG}\n{"msg":"endpoint created","secret":"${secret}"}\n`,
    "dumps/db.sql": `COPY public.webhook_endpoints (id, previous_secret) FROM stdin;\n1\t${secret}\n2\twhsec_old\n\\.\n`,
  });
  expect(result.code).toBe(1);
  expect(result.out).toContain("2 secrets found");
  expect(result.out).toMatch(/logs\/a\.log:3: a webhook signing secret/);
  expect(result.out).toMatch(/dumps\/db\.sql:2: a webhook signing secret/);
  expect(result.out).not.toContain(secret);
}, 30_000);
