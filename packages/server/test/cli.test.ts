import { execFile } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { hashApiKey, isWellFormedApiKey } from "@kopek/core";
import { describe, expect, test } from "vitest";
import { spawnCli } from "./cli-process.js";

// Each test spawns the CLI (a cold Node start, ~1 s alone): 5 s was too tight on a loaded 2-core machine.
describe("kopek command line", { timeout: 30_000 }, () => {
  test("keys generate prints a key and its SHA-256", async () => {
    const cli = spawnCli(["keys", "generate"]);
    expect(await cli.exited).toBe(0);
    const key = cli.stdout().match(/key: +(\S+)/)?.[1] ?? "";
    expect(isWellFormedApiKey(key)).toBe(true);
    expect(cli.stdout()).toContain(`sha256: ${hashApiKey(key)}`);
  });

  test.each([["--help"], ["-h"], ["help"]])("%s lists the commands and the environment", async (flag) => {
    const cli = spawnCli([flag]);
    expect(await cli.exited).toBe(0);
    for (const word of [
      "serve",
      "keys generate",
      "HOST",
      "PORT",
      "KOPEK_PROJECTS_FILE",
      "KOPEK_PUBLIC_URL",
      "KOPEK_RATE_LIMIT",
      "LOG_LEVEL",
      "migrate",
      "projects create --name",
      "projects list",
      "keys create --project",
      "keys revoke",
      "keys list --project",
      "KOPEK_ENCRYPTION_KEY_FILE",
      "KOPEK_ENCRYPTION_OLD_KEYS",
      "KOPEK_IDEMPOTENCY_LEASE_MS",
      "KOPEK_SANDBOX_LEDGER_FILE",
      "KOPEK_SANDBOX_LATENCY_MS",
    ]) {
      expect(cli.stdout()).toContain(word);
    }
  });

  test.each([["frobnicate"], ["keys"], ["--port", "1"]])("%s: usage on stderr, exit 2", async (...args) => {
    const cli = spawnCli(args);
    expect(await cli.exited).toBe(2);
    expect(cli.stderr()).toContain("Usage: kopek");
  });

  test("a bad environment value: one clear line, exit 1", async () => {
    const cli = spawnCli(["serve"], { PORT: "abc" });
    expect(await cli.exited).toBe(1);
    expect(cli.stderr()).toBe('kopek: PORT must be an integer from 0 to 65535, got "abc"\n');
  });

  test("a bad KOPEK_TRUST_PROXY (a CIDR out of range, or true): kopek serve refuses to start, naming it", async () => {
    for (const value of ["10.0.0.0/33", "true"]) {
      const cli = spawnCli(["serve"], { KOPEK_TRUST_PROXY: value, PORT: "0" });
      expect(await cli.exited).toBe(1);
      expect(cli.stderr()).toMatch(/^kopek: KOPEK_TRUST_PROXY must be proxy IP addresses or CIDRs/);
      expect(cli.stderr()).toContain(`got "${value}"`);
    }
  });

  test("a bad projects file: one clear line with the JSON path, exit 1", async () => {
    const path = join(tmpdir(), `kopek-projects-${process.pid}.json`);
    await writeFile(
      path,
      JSON.stringify({ projects: [{ id: "nope", name: "x", provider: { kind: "sandbox" } }] }),
    );
    const cli = spawnCli(["serve"], { KOPEK_PROJECTS_FILE: path, PORT: "0" });
    expect(await cli.exited).toBe(1);
    expect(cli.stderr()).toBe(`kopek: KOPEK_PROJECTS_FILE ${path}: projects[0].id must be a UUID\n`);
  });

  test("serve prints the demo key once with a curl line that returns 201; SIGTERM exits 0", async () => {
    const cli = spawnCli([], { PORT: "0" });
    const [line] = await cli.waitFor(/^ *curl .+$/m);
    expect(cli.stdout().match(/kopek_[0-9A-Za-z]{38}/g)?.length).toBe(2); // the key line and the curl line
    const { stdout } = await promisify(execFile)("sh", [
      "-c",
      `${line.trim()} -o /dev/null -w '%{http_code}'`,
    ]);
    expect(stdout).toBe("201");
    const started = Date.now();
    cli.child.kill("SIGTERM");
    expect(await cli.exited).toBe(0);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  test("PORT=0 without KOPEK_PUBLIC_URL: paymentUrl and /openapi.json use the port really bound", async () => {
    const cli = spawnCli(["serve"], { PORT: "0" });
    const [, url] = await cli.waitFor(/"url":"(http:\/\/127\.0\.0\.1:\d+)"/);
    const [, key] = await cli.waitFor(/Demo API key.*: (kopek_\S+)/);
    const response = await fetch(`${url}/v1/invoices`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${key}`,
        "content-type": "application/json",
        "idempotency-key": "p-0",
      },
      body: JSON.stringify({ amount: { amount: "100", currency: "EUR" } }),
    });
    const invoice = (await response.json()) as { id: string; paymentUrl: string };
    expect(url).not.toMatch(/:0$/);
    // The demo project's id, then the invoice's (API.md 10.3).
    expect(invoice.paymentUrl).toMatch(new RegExp(`^${url}/pay/[0-9a-f-]{36}/${invoice.id}$`));
    const openapi = (await (await fetch(`${url}/openapi.json`)).json()) as { servers: { url: string }[] };
    expect(openapi.servers).toEqual([expect.objectContaining({ url })]);
    cli.child.kill("SIGTERM");
    expect(await cli.exited).toBe(0);
  });

  test("with a projects file: its keys work and no demo project is made", async () => {
    const path = join(tmpdir(), `kopek-projects-ok-${process.pid}.json`);
    const generated = spawnCli(["keys", "generate"]);
    await generated.exited;
    const apiKey = generated.stdout().match(/key: +(\S+)/)?.[1] ?? "";
    const project = {
      id: "0192f3c4-5d6e-7f80-9a1b-2c3d4e5f6a7b",
      name: "shop",
      provider: { kind: "sandbox" },
      apiKeys: [{ sha256: hashApiKey(apiKey) }],
    };
    await writeFile(path, JSON.stringify({ projects: [project] }));
    const cli = spawnCli(["serve"], { KOPEK_PROJECTS_FILE: path, PORT: "0" });
    const [, url] = await cli.waitFor(/"url":"([^"]+)"/);
    const response = await fetch(`${url}/v1/invoices`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${apiKey}`,
        "content-type": "application/json",
        "idempotency-key": "f-1",
      },
      body: JSON.stringify({ amount: { amount: "100", currency: "EUR" } }),
    });
    expect(response.status).toBe(201);
    expect(cli.stdout()).not.toContain("Demo API key");
    cli.child.kill("SIGTERM");
    expect(await cli.exited).toBe(0);
  });
});
