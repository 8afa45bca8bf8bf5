import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openTestDatabase } from "../../../storage-postgres/test/database.js";
import type { ServerProcess } from "../server-process.js";
import { startSandboxProviderProcess } from "./sandbox-project.js";

/**
 * What every crash proof runs on: a test database, a scratch folder, and the sandbox provider in its own
 * process (15 ms latency) with its charges in `ledgerFile`. `onServer` keeps the latest server process,
 * so `close` stops it whatever the test did, then the provider, the database and the folder.
 */
export async function openCrashProof(name: string) {
  const db = await openTestDatabase();
  const scratch = await mkdtemp(join(tmpdir(), `kopek-${name}-`));
  const ledgerFile = join(scratch, "provider-ledger.jsonl");
  const provider = await startSandboxProviderProcess(ledgerFile, 15);
  let server: ServerProcess | null = null;
  return {
    db,
    scratch,
    ledgerFile,
    provider,
    onServer: (started: ServerProcess) => {
      server = started;
    },
    async close() {
      await server?.kill();
      provider.cli.child.kill("SIGTERM");
      await provider.cli.exited;
      await db.close();
      await rm(scratch, { recursive: true, force: true });
    },
  };
}
