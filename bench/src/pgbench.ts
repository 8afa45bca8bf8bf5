import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { trackChild } from "./children.js";

export const PGBENCH_CLIENTS = 8;

export interface PgbenchResult {
  readonly tps: number;
  readonly transactions: number;
  readonly failed: number;
  readonly valid: boolean;
  /** pgbench's own words when it did not finish cleanly. */
  readonly problem: string | null;
}

/** `pgbench -M prepared -c 8 -j 2 -T <s> -n -f <script>` against `url`; tps without connection time. */
export async function runPgbench(
  url: string,
  script: string,
  durationSeconds: number,
  workDir: string,
  name: string,
): Promise<PgbenchResult> {
  const file = join(workDir, `${name}.pgbench.sql`);
  writeFileSync(file, script);
  const seconds = String(Math.max(1, Math.round(durationSeconds)));
  const args = [
    "-n",
    "-M",
    "prepared",
    "-c",
    String(PGBENCH_CLIENTS),
    "-j",
    "2",
    "-T",
    seconds,
    "-f",
    file,
    url,
  ];
  const output = await new Promise<{ code: number | null; text: string }>((resolve, reject) => {
    const child = spawn("pgbench", args, { stdio: ["ignore", "pipe", "pipe"] });
    trackChild(child);
    let text = "";
    child.stdout.on("data", (chunk) => (text += chunk));
    child.stderr.on("data", (chunk) => (text += chunk));
    child.once("error", reject);
    child.once("exit", (code) => resolve({ code, text }));
  });
  const tps = Number(/^tps = ([\d.]+)/m.exec(output.text)?.[1] ?? Number.NaN);
  const transactions = Number(
    /^number of transactions actually processed: (\d+)/m.exec(output.text)?.[1] ?? 0,
  );
  const failed = Number(/^number of failed transactions: (\d+)/m.exec(output.text)?.[1] ?? 0);
  const valid = output.code === 0 && failed === 0 && Number.isFinite(tps);
  const problem = valid
    ? null
    : (output.text.split("\n").find((line) => /error|abort/i.test(line)) ?? `exit ${output.code}`);
  return { tps, transactions, failed, valid, problem };
}
