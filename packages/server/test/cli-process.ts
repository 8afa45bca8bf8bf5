import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

const CLI = fileURLToPath(new URL("../src/cli.ts", import.meta.url));
const ROOT = fileURLToPath(new URL("../../..", import.meta.url));

export interface CliProcess {
  readonly child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Resolves with the first match of `pattern` in stdout, waiting for it to be printed. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  /** Resolves with the exit code once the process ends. */
  exited: Promise<number | null>;
}

/** Runs the kopek command from source (tsx, `dev-source` packages), as `pnpm kopek` would run the build. */
export function spawnCli(args: readonly string[], env: Record<string, string> = {}): CliProcess {
  const child = spawn(process.execPath, ["--conditions=dev-source", "--import", "tsx", CLI, ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? "", LOG_LEVEL: "info", ...env },
  });
  let out = "";
  let err = "";
  child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (err += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const waitFor = (pattern: RegExp, timeoutMs = 15_000) =>
    new Promise<RegExpMatchArray>((resolve, reject) => {
      const check = () => {
        const match = out.match(pattern);
        if (match === null) return false;
        clearTimeout(timer);
        child.stdout.off("data", check);
        resolve(match);
        return true;
      };
      const timer = setTimeout(
        () => reject(new Error(`timed out waiting for ${pattern}; stdout: ${out}; stderr: ${err}`)),
        timeoutMs,
      );
      if (!check()) child.stdout.on("data", check);
    });
  return { child, stdout: () => out, stderr: () => err, waitFor, exited };
}
