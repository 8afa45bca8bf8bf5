import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createHttpProvider } from "@kopek/provider-http";
import { afterAll, expect, test } from "vitest";
import { type CliProcess, spawnCli } from "./cli-process.js";

const scratch = await mkdtemp(join(tmpdir(), "kopek-sandbox-provider-"));
const running: CliProcess[] = [];
afterAll(async () => {
  for (const cli of running) cli.child.kill("SIGKILL");
  await rm(scratch, { recursive: true, force: true });
});

async function startProvider(ledger: string): Promise<{ cli: CliProcess; url: string }> {
  const cli = spawnCli(["sandbox-provider", "--port", "0", "--ledger", ledger]);
  running.push(cli);
  const [, url = ""] = await cli.waitFor(/"url":"([^"]+)".*"sandbox provider listening"/, 30_000);
  return { cli, url };
}

test("kopek sandbox-provider: charges on disk, so the same key never charges twice, even across a SIGKILL", {
  timeout: 60_000,
}, async () => {
  const ledger = join(scratch, "ledger.jsonl");
  const charge = {
    paymentId: crypto.randomUUID(),
    ref: "pm_process_provider_1",
    method: "card" as const,
    money: { amount: "149900", currency: "RUB" },
    description: "test",
    receipt: null,
    idempotencyKey: crypto.randomUUID(),
  };
  const first = await startProvider(ledger);
  const receipt = (
    await createHttpProvider({ url: first.url, allowLocal: true }).chargeStoredMethod(charge)
  )._unsafeUnwrap();
  first.cli.child.kill("SIGKILL");
  await first.cli.exited;

  const second = await startProvider(ledger);
  const again = (
    await createHttpProvider({ url: second.url, allowLocal: true }).chargeStoredMethod(charge)
  )._unsafeUnwrap();
  expect(again.providerPaymentId).toBe(receipt.providerPaymentId);
  const lines = (await readFile(ledger, "utf8")).split("\n").filter((line) => line !== "");
  expect(lines).toHaveLength(1);
  expect(lines[0]).not.toContain(charge.ref); // the ledger keeps a fingerprint, never the method ref
  second.cli.child.kill("SIGTERM");
  expect(await second.cli.exited).toBe(0);
});

test("kopek sandbox-provider with a bad --port: one line, exit 1", async () => {
  const cli = spawnCli(["sandbox-provider", "--port", "http"]);
  expect(await cli.exited).toBe(1);
  expect(cli.stderr()).toBe("kopek: --port must be an integer from 0 to 65535\n");
});
