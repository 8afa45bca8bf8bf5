import { appendFileSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * What the tests leave for `scripts/scan-secrets.mjs` to read after the whole suite: every server
 * log line under `.tmp/logs/`, and the method refs the tests sent under `.tmp/secrets/`, so the scan
 * knows which plaintext tokens must never show up in a log or a database dump.
 */
export const ARTIFACTS_ROOT = join(fileURLToPath(new URL("../../..", import.meta.url)), ".tmp");
const LOGS = join(ARTIFACTS_ROOT, "logs");
const SECRETS = join(ARTIFACTS_ROOT, "secrets");
let made = false;

function ensureDirs(): void {
  if (made) return;
  mkdirSync(LOGS, { recursive: true });
  mkdirSync(SECRETS, { recursive: true });
  made = true;
}

/** A new log file's path, unique to this process: `<label>-<pid>-<time>-<n>.log`. */
let files = 0;
export function newLogFile(label: string): string {
  ensureDirs();
  files += 1;
  return join(LOGS, `${label.replace(/[^\w-]/g, "_")}-${process.pid}-${Date.now()}-${files}.log`);
}

/** Appends text to a log file; synchronous, so nothing is lost when a test process ends. */
export function appendLog(file: string, text: string): void {
  try {
    appendFileSync(file, text);
  } catch {
    // A scan that misses a line is weaker; a test that fails for it would be wrong.
  }
}

// Refs shorter than this are too common as text (`pm_1`) to be searched for without false hits.
const MIN_RECORDED_REF = 10;
const recorded = new Set<string>();

/** Records a method ref a test sent, for the secret scan; refs of the sandbox's special kinds too. */
export function recordMethodRef(ref: unknown): void {
  if (typeof ref !== "string" || ref.length < MIN_RECORDED_REF || recorded.has(ref)) return;
  if (!/^[\x21-\x7e]+$/.test(ref)) return;
  recorded.add(ref);
  ensureDirs();
  appendLog(join(SECRETS, `method-refs-${process.pid}.txt`), `${ref}\n`);
}

/** The `providerMethodRef` of a request body, if it has one, recorded. */
export function recordBodyRefs(body: unknown): void {
  if (typeof body === "object" && body !== null && "providerMethodRef" in body) {
    recordMethodRef((body as { providerMethodRef: unknown }).providerMethodRef);
  }
}

/** Keeps a run's figures in `.tmp/figures/<name>.json` (docs/reliability.md quotes them). */
export function writeFigures(name: string, figures: object): void {
  mkdirSync(join(ARTIFACTS_ROOT, "figures"), { recursive: true });
  writeFileSync(join(ARTIFACTS_ROOT, "figures", `${name}.json`), `${JSON.stringify(figures, null, 2)}\n`);
}
