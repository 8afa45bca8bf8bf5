import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { cpus, platform, release } from "node:os";
import { dirname } from "node:path";
import type { Row } from "./targets.js";

/** Where and on what the figures were measured: they mean nothing without it. */
export function environment(root: string) {
  let commit = "unknown";
  try {
    commit = execFileSync("git", ["rev-parse", "--short", "HEAD"], { cwd: root, encoding: "utf8" }).trim();
  } catch {
    // not a git checkout
  }
  return {
    date: new Date().toISOString(),
    machine: { cpu: cpus()[0]?.model ?? "unknown", cores: cpus().length, os: `${platform()} ${release()}` },
    node: process.version,
    commit,
  };
}

const HEADER = ["scenario", "kopek", "baseline", "ratio", "target", "verdict"];

/** The table, in plain text columns. */
export function formatTable(rows: readonly Row[]): string {
  const cells = rows.map((row) => [
    row.scenario,
    row.kopek,
    row.baseline,
    row.ratio === null || !Number.isFinite(row.ratio) ? "" : row.ratio.toFixed(2),
    row.target,
    row.verdict,
  ]);
  const widths = HEADER.map((title, column) =>
    Math.max(title.length, ...cells.map((line) => (line[column] ?? "").length)),
  );
  const line = (values: readonly string[]) =>
    values
      .map((value, column) =>
        column === 0 ? value.padEnd(widths[0] ?? 0) : value.padStart(widths[column] ?? 0),
      )
      .join("  ")
      .trimEnd();
  return [line(HEADER), line(widths.map((width) => "-".repeat(width))), ...cells.map(line)].join("\n");
}

export function writeJson(file: string, report: unknown): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
}
