import { readFileSync } from "node:fs";
import { sandboxMethodFingerprint } from "@kopek/provider-sandbox";
import type pg from "pg";
import { writeFigures } from "../test-artifacts.js";
import type { Acknowledged } from "./create-driver.js";

export interface WriteFigures {
  /** Acknowledged resources not found (SELECT by id) in the database. */
  readonly lostAcknowledgedWrites: number;
  /** Keys that made more than one resource, or a subscription charged more than once. */
  readonly doubleExecutions: number;
  /** Subscriptions with no charge at all in the provider's ledger. */
  readonly uncharged: number;
  /** Idempotency keys still in progress (past their lease or not) once every request was answered. */
  readonly stuckKeys: number;
  /** Charges in the ledger, all told, and subscriptions in the database. */
  readonly ledgerCharges: number;
  readonly storedSubscriptions: number;
  readonly storedInvoices: number;
}

/** Charges per method fingerprint in a sandbox ledger file (one JSON line per charge). */
export function ledgerCounts(file: string): Map<string, number> {
  const counts = new Map<string, number>();
  const text = (() => {
    try {
      return readFileSync(file, "utf8");
    } catch {
      return "";
    }
  })();
  for (const line of text.split("\n")) {
    if (line === "") continue;
    const { methodFingerprint } = JSON.parse(line) as { methodFingerprint: string };
    counts.set(methodFingerprint, (counts.get(methodFingerprint) ?? 0) + 1);
  }
  return counts;
}

/**
 * What the database and the provider's books say after a run: every acknowledged resource exists
 * exactly once, every key made one resource, every subscription was charged exactly once.
 */
export async function verifyWrites(
  pool: pg.Pool,
  acknowledged: readonly Acknowledged[],
  ledgerFile: string,
): Promise<WriteFigures> {
  const charges = ledgerCounts(ledgerFile);
  let lost = 0;
  let doubles = 0;
  let uncharged = 0;
  const byKey = new Map<string, Set<string>>();
  for (const ack of acknowledged) {
    const table = ack.route === "/v1/subscriptions" ? "subscriptions" : "invoices";
    const { rows } = await pool.query(`SELECT id FROM ${table} WHERE id = $1`, [ack.id]);
    if (rows.length !== 1) lost += 1;
    const ids = byKey.get(ack.key) ?? new Set<string>();
    ids.add(ack.id);
    byKey.set(ack.key, ids);
    if (table === "subscriptions") {
      const n = charges.get(sandboxMethodFingerprint(String(ack.body.providerMethodRef))) ?? 0;
      if (n > 1) doubles += 1;
      if (n === 0) uncharged += 1;
    }
  }
  for (const ids of byKey.values()) if (ids.size > 1) doubles += 1;
  const count = async (sql: string) => Number((await pool.query<{ n: string }>(sql)).rows[0]?.n ?? 0);
  const storedSubscriptions = await count("SELECT count(*) AS n FROM subscriptions");
  const storedInvoices = await count("SELECT count(*) AS n FROM invoices");
  // Resources nobody acknowledged would be executions of a key that later made another one.
  const acknowledgedKeys = new Set(acknowledged.map((ack) => ack.key)).size;
  if (storedSubscriptions + storedInvoices > acknowledgedKeys)
    doubles += storedSubscriptions + storedInvoices - acknowledgedKeys;
  return {
    lostAcknowledgedWrites: lost,
    doubleExecutions: doubles,
    uncharged,
    stuckKeys: await count("SELECT count(*) AS n FROM idempotency_records WHERE state = 'in_progress'"),
    ledgerCharges: [...charges.values()].reduce((sum, n) => sum + n, 0),
    storedSubscriptions,
    storedInvoices,
  };
}

/** Prints the figures and keeps them in .tmp/figures/<name>.json for docs/reliability.md. */
export function reportFigures(name: string, figures: Record<string, unknown>): void {
  console.info(`${name}: ${JSON.stringify(figures)}`);
  writeFigures(name, figures);
}
