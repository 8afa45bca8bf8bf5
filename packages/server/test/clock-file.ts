import { readFile, rename, writeFile } from "node:fs/promises";

/** Sets the test clock of server processes (KOPEK_TEST_CLOCK_FILE): written whole, then renamed in. */
export async function setClockFile(file: string, at: string | Date): Promise<void> {
  const iso = typeof at === "string" ? at : at.toISOString();
  await writeFile(`${file}.next`, `${iso}\n`);
  await rename(`${file}.next`, file);
}

export interface LedgerLine {
  readonly chargeId: string;
  readonly idempotencyKey: string;
  readonly methodFingerprint: string;
  readonly chargedAt: string;
}

/**
 * The charges in a sandbox ledger file (KOPEK_SANDBOX_LEDGER_FILE), oldest first. Read while servers
 * append to it, the file can end in a line still being written: it is left out, as the sandbox's own
 * reader leaves it (provider-sandbox `ledger-file.ts`).
 */
export async function readLedgerFile(file: string): Promise<LedgerLine[]> {
  const text = await readFile(file, "utf8").catch(() => "");
  return text
    .slice(0, text.lastIndexOf("\n") + 1)
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as LedgerLine);
}
