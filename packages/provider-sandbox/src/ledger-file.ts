import { closeSync, fstatSync, openSync, readSync, writeSync } from "node:fs";
import type { PaymentMethod, Receipt } from "@kopek/core";
import type { SandboxCharge } from "./sandbox-charge.js";

/**
 * The sandbox's books as an append-only JSON-lines file: one line per charge, so charges can be
 * counted across processes and survive a restart (a testing aid, not a payment company's database).
 * A line holds the charge's id, key, method fingerprint, method, amount, currency, time and 54-FZ
 * receipt: never the method ref. Loaded charges have an empty `description`, which the file does not keep.
 */
export interface LedgerFile {
  /** Charges appended since the last read, by this process or another one. */
  readNew(): SandboxCharge[];
  /** Appends a charge before it is reported, so a process killed right after it still counts it. */
  append(charge: SandboxCharge): void;
  close(): void;
}

interface LedgerLine {
  chargeId: string;
  idempotencyKey: string;
  methodFingerprint: string;
  method: PaymentMethod;
  amount: string;
  currency: string;
  chargedAt: string;
  /** Absent in lines written before receipts were kept: no receipt. */
  receipt?: Receipt | null;
}

export function openLedgerFile(path: string): LedgerFile {
  // "a+": created when missing; writes always append (O_APPEND: whole lines from several processes
  // do not interleave), reads use explicit positions.
  const fd = openSync(path, "a+", 0o600);
  let offset = 0;
  let lineNumber = 0;
  return {
    readNew() {
      const size = fstatSync(fd).size;
      if (size <= offset) return [];
      const buffer = Buffer.alloc(size - offset);
      readSync(fd, buffer, 0, buffer.length, offset);
      // A line still being written (no newline yet) is left for the next read.
      const complete = buffer.lastIndexOf(0x0a) + 1;
      offset += complete;
      const lines = buffer.subarray(0, complete).toString("utf8").split("\n").slice(0, -1);
      return lines.map((text) => {
        lineNumber += 1;
        return parseLine(text, path, lineNumber);
      });
    },
    append(charge) {
      const line: LedgerLine = {
        chargeId: charge.chargeId,
        idempotencyKey: charge.idempotencyKey,
        methodFingerprint: charge.methodFingerprint,
        method: charge.method,
        amount: charge.money.amount,
        currency: charge.money.currency,
        chargedAt: charge.chargedAt.toISOString(),
        receipt: charge.receipt,
      };
      // Synchronous, with no await before the charge is reported. Not fsync'ed: this survives a killed
      // process (the crash the tests make), not a machine losing power.
      writeSync(fd, `${JSON.stringify(line)}\n`);
    },
    close: () => closeSync(fd),
  };
}

function parseLine(text: string, path: string, lineNumber: number): SandboxCharge {
  let line: Partial<LedgerLine>;
  try {
    line = JSON.parse(text) as Partial<LedgerLine>;
  } catch {
    throw new Error(`sandbox: ledger file ${path} line ${lineNumber} is not JSON`);
  }
  const fields = ["chargeId", "idempotencyKey", "methodFingerprint", "method", "amount", "currency"] as const;
  const chargedAt = new Date(String(line.chargedAt));
  if (fields.some((field) => typeof line[field] !== "string") || Number.isNaN(chargedAt.getTime())) {
    throw new Error(`sandbox: ledger file ${path} line ${lineNumber} is not a charge`);
  }
  const { chargeId, idempotencyKey, methodFingerprint, method, amount, currency } = line as LedgerLine;
  return Object.freeze({
    chargeId,
    idempotencyKey,
    methodFingerprint,
    method,
    money: { amount, currency },
    description: "",
    receipt: line.receipt ?? null,
    chargedAt,
  });
}
