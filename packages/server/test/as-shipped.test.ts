import { randomUUID } from "node:crypto";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { generateApiKey, hashApiKey } from "@kopek/core";
import { startTBankEmulator } from "@kopek/provider-tbank/emulator";
import { describe, expect, it } from "vitest";
import { checkServer, expectCleanStop, operatorShell } from "./as-shipped.js";
import { ensureBuiltCli } from "./built-cli.js";
import { recordMethodRef } from "./test-artifacts.js";
import { prepareYooKassaProject } from "./yookassa-project-files.js";

// The built `kopek serve` as docs/api.md §8 tells an operator to start it, every setting not named at
// its default (the rate limits, the worker and its interval included). A default that cannot hold here
// is a product bug. On memory storage: these run wherever `pnpm test` does.
const build = await ensureBuiltCli();
console.info(
  `as-shipped: ${build.built.length === 0 ? "dist is fresh" : `built ${build.built.join(", ")}`} (${build.ms} ms)`,
);

describe.concurrent("as shipped, on memory storage", { timeout: 60_000 }, () => {
  it("a. no setting but PORT: the demo project's key works, the page, /metrics, SIGTERM exits 0", async () => {
    const shell = await operatorShell("memory");
    try {
      const server = await shell.serve({});
      const [, apiKey = ""] = await server.cli.waitFor(/Demo API key \(shown only this once\): (\S+)/);
      expect(server.cli.stdout()).toContain('"storage":"memory"');
      await checkServer(server, apiKey, { subscription: true });
      await expectCleanStop(server);
    } finally {
      await shell.close();
    }
  });

  it("d. a projects file with a sandbox, a YooKassa and a T-Bank project (the emulators)", async () => {
    const yookassa = await prepareYooKassaProject("shipped");
    const tbank = await startTBankEmulator();
    recordMethodRef(tbank.password); // the secret scan after the suite looks for it in the logs
    const shell = await operatorShell("projects-file");
    try {
      await writeFile(join(yookassa.scratch, "terminal.password"), `${tbank.password}\n`, { mode: 0o600 });
      const { projects } = JSON.parse(await readFile(yookassa.projectsFile, "utf8"));
      // Its webhook goes to a receiver on this machine, which takes an opt-in this file does not test.
      delete projects[0].webhooks;
      const keys = { sandbox: generateApiKey(), tbank: generateApiKey(), yookassa: yookassa.apiKey };
      const tbankId = randomUUID();
      projects.push(
        {
          id: randomUUID(),
          name: "shop",
          provider: { kind: "sandbox", storedMethodCharge: true },
          apiKeys: [{ sha256: hashApiKey(keys.sandbox) }],
        },
        {
          id: tbankId,
          name: "tea",
          provider: {
            kind: "tbank",
            terminalKey: tbank.terminalKey,
            passwordFile: "terminal.password",
            apiUrl: tbank.apiUrl,
          },
          apiKeys: [{ sha256: hashApiKey(keys.tbank) }],
        },
      );
      await writeFile(yookassa.projectsFile, JSON.stringify({ projects }));
      // The emulators listen on this machine: the documented opt-in for them (development only).
      const server = await shell.serve({
        KOPEK_PROJECTS_FILE: yookassa.projectsFile,
        KOPEK_PROVIDERS_ALLOW_LOCAL: "on",
      });
      for (const [kind, id] of [
        ["yookassa", yookassa.projectId],
        ["tbank", tbankId],
      ])
        await server.cli.waitFor(
          new RegExp(`"notificationUrl":"${server.url}/provider-events/${id}/${kind}"`),
        );
      await checkServer(server, keys.sandbox, { subscription: true });
      // A subscription on YooKassa or T-Bank starts from a method saved by a paid invoice: invoices here.
      await checkServer(server, keys.yookassa, { subscription: false });
      await checkServer(server, keys.tbank, { subscription: false });
      const output = server.cli.stdout() + server.cli.stderr();
      expect(output).not.toContain(yookassa.emulator.secretKey);
      expect(output).not.toContain(tbank.password);
      await expectCleanStop(server);
    } finally {
      await shell.close();
      await tbank.close();
      await yookassa.close();
    }
  });
});
